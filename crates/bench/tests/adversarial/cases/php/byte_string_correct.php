<?php
// redteam: task=php_bytes expect=pass  (correct: the one byte 0xff)
class Enc {
    public function enc() { return "\xff"; }
}
?>
