<?php
// redteam: task=php_acc expect=nopass  (probe: can the sample open its warm runtime's memory for writing? prints the answer)
$f = @fopen('/proc/' . posix_getppid() . '/mem', 'r+');
echo $f === false ? "parent mem: no\n" : "parent mem: WRITABLE (ppid " . posix_getppid() . ")\n";
class Acc {
    public function add($a, $b) { return 0; }
    public function greet($n) { return ""; }
}
?>
