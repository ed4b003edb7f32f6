<?php
class JS {
    public function Judgment_Splicing($s, $words) {
        // body
        $n = strlen($s);
        $ok = array_fill(0, $n + 1, false);
        $ok[0] = true;
        for ($i = 1; $i <= $n; $i++) {
            foreach ($words as $w) {
                $l = strlen($w);
                if ($l <= $i && $ok[$i - $l] && substr($s, $i - $l, $l) === $w) $ok[$i] = true;
            }
        }
        return $ok[$n];
    }
}
