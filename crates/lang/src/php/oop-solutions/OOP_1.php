<?php
class MNS {
    private $machines;
    public function __construct($machines) { $this->machines = $machines; }
    public function public_Ministeps() {
        // body
        return $this->private_Ministeps() + 0;
    }
    private function private_Ministeps() {
        $n = count($this->machines);
        $total = array_sum($this->machines);
        if ($n === 0 || $total % $n !== 0) return -1;
        $avg = intdiv($total, $n);
        $run = 0;
        $best = 0;
        foreach ($this->machines as $m) {
            $d = $m - $avg;
            $run += $d;
            $best = max($best, abs($run), $d);
        }
        return $best;
    }
}
