<?php
class PDIT {
    public function Palindromic_integer($x) {
        // body
        if ($x < 0) return false;
        return strrev((string)$x) === (string)$x;
    }
}
