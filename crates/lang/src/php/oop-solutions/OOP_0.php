<?php
class WDS {
    public function without_duplicates($s) {
        // body
        $last = [];
        $best = 0;
        $start = 0;
        for ($i = 0; $i < strlen($s); $i++) {
            $c = $s[$i];
            if (isset($last[$c]) && $last[$c] >= $start) $start = $last[$c] + 1;
            $last[$c] = $i;
            $best = max($best, $i - $start + 1);
        }
        return $best + 0;
    }
}
