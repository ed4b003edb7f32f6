<?php
class RWO {
    public function Reverse_Word_Order($s) {
        // body
        $words = preg_split('/\s+/', trim($s), -1, PREG_SPLIT_NO_EMPTY);
        return implode(' ', array_reverse($words));
    }
}
