<?php
class ITETAO {
    public function Appeared_Once($nums) {
        // body
        $counts = array_count_values($nums);
        foreach ($nums as $v) {
            if ($counts[$v] === 1) return $v + 0;
        }
        return 0;
    }
}
