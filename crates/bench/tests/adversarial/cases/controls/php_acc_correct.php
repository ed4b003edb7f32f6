<?php
// redteam: task=php_acc expect=pass  (control)
class Acc {
    public function add($a, $b) { return $a + $b; }
    public function greet($n) { return "hi " . $n; }
}
?>
