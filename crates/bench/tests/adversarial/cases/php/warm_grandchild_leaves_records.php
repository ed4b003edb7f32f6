<?php
// redteam: task=php_acc expect=nopass victim=cases/controls/php_acc_correct.php victims=3  (a forked grandchild writes end records to the runtime's stdout pipe until the zygote kills it; what it wrote after the zygote's last relay for this sample is relayed into the next sample's output)
class Acc {
    public function add($a, $b) { return 0; }
    public function greet($n) { return ""; }
}
$pid = pcntl_fork();
if ($pid === 0) {
    $out = fopen('php://fd/1', 'w');
    while (true) {
        fwrite($out, "\n\x1epolyeval-judge {\"end\":null}\n");
    }
}
usleep(20000);
?>
