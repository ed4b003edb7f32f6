<?php
// redteam: task=php_bytes expect=nopass  (wrong: "\xc3\xbf" is not "\xff")
class Enc {
    public function enc() { return "\xc3\xbf"; }
}
?>
