<?php
class FTM {
    public function find_the_median($a, $b) {
        // body
        $all = array_merge($a, $b);
        sort($all);
        $n = count($all);
        $m = $n % 2 === 1 ? $all[intdiv($n, 2)] : ($all[$n / 2 - 1] + $all[$n / 2]) / 2;
        return $m + 0;
    }
}
