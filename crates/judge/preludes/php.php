// polyeval judge observer (PHP). Functions are global and cannot be
// redefined by the candidate; records go to the STDOUT stream directly
// (ob_start cannot capture them). Expected values are compared outside.
function __polyeval_emit($json) {
    $line = "\n\x1epolyeval-judge " . $json . "\n";
    $n = strlen($line);
    $o = 0;
    while ($o < $n) {
        $w = @fwrite(STDOUT, substr($line, $o));
        if ($w === false || $w === 0) {
            return;
        }
        $o += $w;
    }
    @fflush(STDOUT);
}

function __polyeval_str($s) {
    $s = (string) $s;
    if (preg_match('//u', $s) !== 1) {
        // A PHP string holds bytes: a well-formed UTF-8 sequence is its
        // character, any other byte b is U+10FF00+b (as polyeval reads the
        // byte escapes of a literal).
        $out = '';
        $n = strlen($s);
        for ($i = 0; $i < $n; $i++) {
            $c = ord($s[$i]);
            $len = $c < 0x80 ? 1 : ($c >= 0xf0 && $c <= 0xf4 ? 4 : ($c >= 0xe0 ? 3 : ($c >= 0xc2 && $c <= 0xdf ? 2 : 0)));
            $seq = $len > 0 ? substr($s, $i, $len) : '';
            if ($len > 0 && strlen($seq) === $len && preg_match('//u', $seq) === 1) {
                $out .= $seq;
                $i += $len - 1;
            } else {
                $out .= chr(0xf4) . chr(0x8f) . chr(0xbc | ($c >> 6)) . chr(0x80 | ($c & 0x3f));
            }
        }
        $s = $out;
    }
    $j = json_encode($s, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE);
    return $j === false ? '""' : $j;
}

function __polyeval_enc($v, $depth) {
    if ($depth > 100) {
        return '{"truncated":null}';
    }
    if (is_null($v)) {
        return 'null';
    }
    if (is_bool($v)) {
        return $v ? 'true' : 'false';
    }
    if (is_int($v)) {
        return (string) $v;
    }
    if (is_float($v)) {
        if (is_nan($v)) {
            return '{"float":"nan"}';
        }
        if (is_infinite($v)) {
            return $v > 0 ? '{"float":"inf"}' : '{"float":"-inf"}';
        }
        $j = json_encode($v, JSON_PRESERVE_ZERO_FRACTION);
        return $j === false ? '{"float":"nan"}' : $j;
    }
    if (is_string($v)) {
        return __polyeval_str($v);
    }
    if (is_array($v)) {
        $i = 0;
        $list = true;
        foreach ($v as $k => $_) {
            if ($k !== $i) {
                $list = false;
                break;
            }
            $i++;
        }
        $parts = [];
        if ($list) {
            foreach ($v as $x) {
                $parts[] = __polyeval_enc($x, $depth + 1);
            }
            return '[' . implode(',', $parts) . ']';
        }
        foreach ($v as $k => $x) {
            $parts[] = '[' . __polyeval_enc($k, $depth + 1) . ',' . __polyeval_enc($x, $depth + 1) . ']';
        }
        return '{"map":[' . implode(',', $parts) . ']}';
    }
    if (is_object($v)) {
        return '{"object":' . __polyeval_str(get_class($v)) . '}';
    }
    return '{"object":' . __polyeval_str(gettype($v)) . '}';
}

function __polyeval_observe($t, $v) {
    __polyeval_emit('{"t":' . intval($t) . ',"v":' . __polyeval_enc($v, 0) . '}');
}

function __polyeval_raised($t, $e) {
    $message = substr((string) $e->getMessage(), 0, 500);
    $type = get_class($e);
    $short = strrpos($type, '\\') === false ? $type : substr($type, strrpos($type, '\\') + 1);
    __polyeval_emit('{"t":' . intval($t) . ',"raised":{"type":' . __polyeval_str($short) . ',"message":' . __polyeval_str($message) . '}}');
}

function __polyeval_finish() {
    $previous = set_exception_handler(null);
    if ($previous !== null) {
        __polyeval_emit('{"tamper":"set_exception_handler installed a handler"}');
        set_exception_handler($previous);
    }
    __polyeval_emit('{"end":null}');
}
