<?php
class CRTP {
    public function climb_rooftop($n) {
        // body
        $a = 1;
        $b = 1;
        for ($i = 2; $i <= $n; $i++) { $c = $a + $b; $a = $b; $b = $c; }
        return $b + 0;
    }
}
