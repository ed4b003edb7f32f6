<?php
// polyeval's IPC driver kit (PHP).
//
// A driver exercises the candidate's code (solution.php, loaded with
// ipc_load_solution()) over real loopback connections and reports what it
// observes with ipc_check(); polyeval compares the observations with the
// canonical solution's, outside the sandbox. PHP has no threads: the other
// side of a candidate's client is a counterpart process (ipc_peer() starts
// polyeval's recording peer, ipc_spawn() any program), a candidate's server
// runs in a forked child (ipc_serve()). Every wait is bounded and explicit:
// readiness is a port seen listening in /proc/net (never a probe
// connection, never a fixed sleep).

const IPC_WAIT = 10.0;

final class IpcNotReady extends RuntimeException {}
final class IpcTimeout extends RuntimeException {}

$GLOBALS['__ipc_next'] = 0;
$GLOBALS['__ipc_processes'] = [];
$GLOBALS['__ipc_children'] = [];
$GLOBALS['__ipc_capture'] = null;

// Report the next observation: a value, or what a closure returns. An
// exception is reported as the observation's and rethrown.
function ipc_check($value) {
    $t = $GLOBALS['__ipc_next']++;
    try {
        $v = $value instanceof Closure ? $value() : $value;
    } catch (Throwable $e) {
        __polyeval_raised($t, $e);
        throw $e;
    }
    __polyeval_observe($t, $v);
}

function ipc_ports(array $kinds, array $states) {
    $found = [];
    foreach ($kinds as $kind) {
        $lines = @file('/proc/net/' . $kind, FILE_IGNORE_NEW_LINES);
        if ($lines === false) {
            continue;
        }
        foreach (array_slice($lines, 1) as $line) {
            $parts = preg_split('/\s+/', trim($line));
            if (count($parts) > 3 && in_array($parts[3], $states, true)) {
                $local = $parts[1];
                $found[hexdec(substr($local, strrpos($local, ':') + 1))] = true;
            }
        }
    }
    return $found;
}

// Poll $condition() until it is true; IpcNotReady after $timeout seconds.
function ipc_wait_until(callable $condition, $what = 'the condition', $timeout = IPC_WAIT) {
    $deadline = microtime(true) + $timeout;
    while (!$condition()) {
        if (microtime(true) > $deadline) {
            throw new IpcNotReady("$what did not hold within $timeout s");
        }
        usleep(10000);
    }
}

// Wait until a TCP socket listens on $port.
function ipc_wait_port($port, $timeout = IPC_WAIT) {
    ipc_wait_until(function () use ($port) {
        return isset(ipc_ports(['tcp', 'tcp6'], ['0A'])[$port]);
    }, "a listener on TCP port $port", $timeout);
}

// Wait until a UDP socket is bound to $port.
function ipc_wait_udp($port, $timeout = IPC_WAIT) {
    ipc_wait_until(function () use ($port) {
        return isset(ipc_ports(['udp', 'udp6'], ['07', '01'])[$port]);
    }, "a socket bound to UDP port $port", $timeout);
}

// Load the candidate's code.
function ipc_load_solution($file = 'solution.php') {
    $functions = get_defined_functions()['user'];
    $classes = get_declared_classes();
    require_once __DIR__ . '/' . $file;
    ipc_alias_entries(
        array_diff(get_defined_functions()['user'], $functions),
        array_diff(get_declared_classes(), $classes)
    );
}

// CrossPL's instructions seldom name the function they ask for: when the
// candidate lacks a name the canonical solution defines
// (polyeval_entry.json), its only top-level function (or class) the
// canonical solution does not name is reached by that name.
function ipc_alias_entries(array $functions, array $classes) {
    $text = @file_get_contents(__DIR__ . '/polyeval_entry.json');
    $entries = $text === false ? [] : json_decode($text, true);
    $names = array_map('strtolower', array_column($entries ?: [], 'name'));
    foreach ($entries ?: [] as $entry) {
        $name = $entry['name'];
        if ($entry['kind'] === 'class') {
            if (class_exists($name, false)) {
                continue;
            }
            $unmatched = array_values(array_filter($classes, fn($c) => !in_array(strtolower($c), $names, true)));
            if (count($unmatched) === 1) {
                class_alias($unmatched[0], $name);
            }
        } else {
            if (function_exists($name)) {
                continue;
            }
            $unmatched = array_values(array_filter($functions, fn($f) => !in_array(strtolower($f), $names, true)));
            if (count($unmatched) === 1) {
                // A wrapper with the candidate's parameters (by reference
                // where it takes them so) passing on the arguments given.
                $target = $unmatched[0];
                $params = [];
                $args = [];
                foreach ((new ReflectionFunction($target))->getParameters() as $i => $p) {
                    $ref = $p->isPassedByReference() ? '&' : '';
                    $params[] = $p->isVariadic() ? "$ref...\$p$i" : "$ref\$p$i = null";
                    $args[] = $p->isVariadic() ? "...\$p$i" : "$ref\$p$i";
                }
                $list = implode(', ', $params);
                $given = implode(', ', $args);
                eval("function $name($list) { \$a = [$given]; return $target(...array_slice(\$a, 0, func_num_args())); }");
            }
        }
    }
}

// Run $fn (e.g. the candidate's blocking server) in a forked child, killed
// at the end; returns its pid.
function ipc_serve(callable $fn) {
    $pid = pcntl_fork();
    if ($pid < 0) {
        throw new RuntimeException('fork failed');
    }
    if ($pid === 0) {
        try {
            $fn();
        } catch (Throwable $e) {
            fwrite(STDERR, 'polyeval_ipc: the served function threw ' . get_class($e) . ': ' . $e->getMessage() . "\n");
        }
        posix_kill(posix_getpid(), SIGKILL);
    }
    $GLOBALS['__ipc_children'][] = $pid;
    return $pid;
}

// Start a counterpart process (killed at the end) and wait until it listens
// on TCP $ready_port / is bound to UDP $ready_udp.
function ipc_spawn(array $argv, $ready_port = null, $ready_udp = null) {
    $process = proc_open($argv, [0 => ['file', '/dev/null', 'r'], 1 => STDERR, 2 => STDERR], $pipes, __DIR__);
    if (!is_resource($process)) {
        throw new RuntimeException('cannot start ' . $argv[0]);
    }
    $GLOBALS['__ipc_processes'][] = $process;
    if ($ready_port !== null) {
        ipc_wait_port($ready_port);
    }
    if ($ready_udp !== null) {
        ipc_wait_udp($ready_udp);
    }
    return $process;
}

// Start polyeval's recording peer ($kind: http, tcp, udp or ws) on $port,
// answering as $reply says (see polyeval_ipc_peer.py); returns a handle
// for ipc_peer_records().
function ipc_peer($kind, $port, $reply = null) {
    $log = "/tmp/polyeval-ipc-peer-$kind-$port.jsonl";
    @unlink($log);
    $argv = ['python3', __DIR__ . '/polyeval_ipc_peer.py', $kind, (string) $port, $log, json_encode($reply)];
    if ($kind === 'udp') {
        ipc_spawn($argv, null, $port);
    } else {
        ipc_spawn($argv, $port);
    }
    return $log;
}

// The peer's records (arrays) once $count were recorded.
function ipc_peer_records($peer, $count = 1, $timeout = IPC_WAIT) {
    $read = function () use ($peer) {
        $lines = @file($peer, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
        return $lines === false ? [] : array_map(function ($l) { return json_decode($l, true); }, $lines);
    };
    ipc_wait_until(function () use ($read, $count) { return count($read()) >= $count; }, "$count record(s) of the peer", $timeout);
    return $read();
}

// One HTTP request: ['status' => int, 'headers' => [lower-case name => value], 'body' => string].
function ipc_request($method, $url, $body = null, array $headers = []) {
    $lines = [];
    foreach ($headers as $k => $v) {
        $lines[] = "$k: $v";
    }
    $context = stream_context_create(['http' => [
        'method' => $method,
        'header' => implode("\r\n", $lines),
        'content' => $body === null ? '' : (is_array($body) ? json_encode($body) : $body),
        'ignore_errors' => true,
        'timeout' => IPC_WAIT,
    ]]);
    $data = file_get_contents($url, false, $context);
    if ($data === false) {
        throw new RuntimeException("$method $url failed");
    }
    $status = 0;
    $out = [];
    foreach ($http_response_header as $h) {
        if (preg_match('#^HTTP/\S+\s+(\d+)#', $h, $m)) {
            $status = (int) $m[1];
        } elseif (strpos($h, ':') !== false) {
            [$k, $v] = explode(':', $h, 2);
            $out[strtolower(trim($k))] = trim($v);
        }
    }
    return ['status' => $status, 'headers' => $out, 'body' => $data];
}

// Connect, send $data and return what comes back until the peer closes or is
// quiet for 0.3 s after data.
function ipc_tcp_exchange($port, $data = '', $host = '127.0.0.1') {
    $socket = @stream_socket_client("tcp://$host:$port", $errno, $errstr, IPC_WAIT);
    if ($socket === false) {
        throw new RuntimeException("connect to $host:$port failed: $errstr ($errno)");
    }
    if ($data !== '') {
        fwrite($socket, $data);
    }
    $got = '';
    $deadline = microtime(true) + IPC_WAIT;
    while (!feof($socket) && microtime(true) < $deadline) {
        $read = [$socket];
        $write = $except = null;
        $ready = stream_select($read, $write, $except, 0, $got === '' ? 100000 : 300000);
        if ($ready === 0) {
            if ($got !== '') {
                break;
            }
            continue;
        }
        $chunk = fread($socket, 65536);
        if ($chunk === '' || $chunk === false) {
            break;
        }
        $got .= $chunk;
    }
    fclose($socket);
    return $got;
}

// Send one datagram and return the first reply.
function ipc_udp_exchange($port, $data, $host = '127.0.0.1') {
    $socket = stream_socket_client("udp://$host:$port", $errno, $errstr, IPC_WAIT);
    if ($socket === false) {
        throw new RuntimeException("udp to $host:$port failed: $errstr ($errno)");
    }
    stream_set_timeout($socket, (int) IPC_WAIT);
    fwrite($socket, $data);
    $reply = fread($socket, 65536);
    fclose($socket);
    return $reply;
}

// Collect what the program echoes/prints from now on (still printed too);
// ipc_captured() returns it.
function ipc_capture_output() {
    $GLOBALS['__ipc_capture'] = '';
    ob_start(function ($chunk) {
        $GLOBALS['__ipc_capture'] .= $chunk;
        return $chunk;
    }, 1);
}

function ipc_captured() {
    if (ob_get_level() > 0) {
        ob_flush();
    }
    return (string) $GLOBALS['__ipc_capture'];
}

// Run the driver file: the end record when it returns, exit status 1 with
// the error when it throws.
function ipc_main($driver) {
    try {
        require $driver;
    } catch (Throwable $e) {
        fwrite(STDERR, 'driver failed: ' . get_class($e) . ': ' . $e->getMessage() . "\n" . $e->getTraceAsString() . "\n");
        ipc_stop_with(1);
    }
    __polyeval_finish();
    ipc_stop_with(0);
}

function ipc_stop_with($code) {
    while (ob_get_level() > 0) {
        ob_end_flush();
    }
    foreach ($GLOBALS['__ipc_children'] as $pid) {
        @posix_kill($pid, SIGKILL);
        @pcntl_waitpid($pid, $status);
    }
    foreach ($GLOBALS['__ipc_processes'] as $process) {
        @proc_terminate($process, SIGKILL);
    }
    exit($code);
}
