// polyeval's IPC driver kit (Go). Part of package main with the candidate's
// code (solution.go, whose own `main` is renamed `candidateMain`), the
// judge's observer and the driver (driver.go, defining `func ipcDriver()`).
//
// A driver exercises the candidate's code over real loopback connections
// and reports what it observes with ipcCheck; polyeval compares the
// observations with the canonical solution's, outside the sandbox. Every
// wait is bounded and explicit: readiness is a port seen listening in
// /proc/net (never a probe connection, never a fixed sleep).
package main

import (
	ipcBufio "bufio"
	ipcBytes "bytes"
	ipcFmt "fmt"
	ipcIO "io"
	ipcIoutil "io/ioutil"
	ipcLog "log"
	ipcNet "net"
	ipcHTTP "net/http"
	ipcOS "os"
	ipcExec "os/exec"
	ipcRuntimeDebug "runtime/debug"
	ipcStrconv "strconv"
	ipcStrings "strings"
	ipcSync "sync"
	ipcTime "time"
)

// ipcWait bounds every wait of the kit.
const ipcWait = 10 * ipcTime.Second

// ipcStderr is the program's standard error as it was at start (a capture
// replaces os.Stderr; the kit's own reports must not go through it).
var ipcStderr = ipcOS.Stderr

var ipcNext = 0
var ipcSpawned []*ipcExec.Cmd
var ipcMu ipcSync.Mutex

// ipcCheck reports the next observation. A []byte is reported as a string.
func ipcCheck(v interface{}) {
	t := ipcNext
	ipcNext++
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	polyevalObserve(t, func() interface{} { return v })
}

// ipcCheckErr reports what f returns; a non-nil error is reported as the
// observation's failure (and ends the driver).
func ipcCheckErr(f func() (interface{}, error)) {
	t := ipcNext
	ipcNext++
	v, err := f()
	if err != nil {
		polyevalRaised(t, err)
		panic(err)
	}
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	polyevalObserve(t, func() interface{} { return v })
}

func ipcPorts(kinds []string, states []string) map[int]bool {
	found := map[int]bool{}
	for _, kind := range kinds {
		data, err := ipcIoutil.ReadFile("/proc/net/" + kind)
		if err != nil {
			continue
		}
		for i, line := range ipcStrings.Split(string(data), "\n") {
			parts := ipcStrings.Fields(line)
			if i == 0 || len(parts) < 4 {
				continue
			}
			for _, s := range states {
				if parts[3] == s {
					local := parts[1]
					if p, err := ipcStrconv.ParseInt(local[ipcStrings.LastIndex(local, ":")+1:], 16, 32); err == nil {
						found[int(p)] = true
					}
				}
			}
		}
	}
	return found
}

// ipcNotReady is the panic of a wait that ran out of time (the server did not start).
type ipcNotReady struct{ message string }

func (e ipcNotReady) Error() string { return e.message }

// ipcTimeout is the panic of a call that did not return in time.
type ipcTimeout struct{ message string }

func (e ipcTimeout) Error() string { return e.message }

// ipcWaitUntil polls cond until it holds; panics with ipcNotReady after ipcWait.
func ipcWaitUntil(cond func() bool, what string) {
	deadline := ipcTime.Now().Add(ipcWait)
	for !cond() {
		if ipcTime.Now().After(deadline) {
			panic(ipcNotReady{what + " did not hold within " + ipcWait.String()})
		}
		ipcTime.Sleep(10 * ipcTime.Millisecond)
	}
}

// ipcWaitPort waits until a TCP socket listens on port.
func ipcWaitPort(port int) {
	deadline := ipcTime.Now().Add(ipcWait)
	for !ipcPorts([]string{"tcp", "tcp6"}, []string{"0A"})[port] {
		if ipcTime.Now().After(deadline) {
			panic(ipcNotReady{ipcFmt.Sprintf("nothing listens on TCP port %d after %s", port, ipcWait)})
		}
		ipcTime.Sleep(10 * ipcTime.Millisecond)
	}
}

// ipcWaitUDP waits until a UDP socket is bound to port.
func ipcWaitUDP(port int) {
	deadline := ipcTime.Now().Add(ipcWait)
	for !ipcPorts([]string{"udp", "udp6"}, []string{"07", "01"})[port] {
		if ipcTime.Now().After(deadline) {
			panic(ipcNotReady{ipcFmt.Sprintf("nothing is bound to UDP port %d after %s", port, ipcWait)})
		}
		ipcTime.Sleep(10 * ipcTime.Millisecond)
	}
}

// ipcServe runs f (e.g. the candidate's blocking server) in a goroutine; a
// panic there is printed and ends the program.
func ipcServe(f func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ipcFmt.Fprintf(ipcStderr, "polyeval_ipc: a served function panicked: %T: %v\n%s", r, r, ipcRuntimeDebug.Stack())
				ipcStop(1)
			}
		}()
		f()
	}()
}

// ipcCall runs f and waits for it at most ipcWait (panics with ipcTimeout).
func ipcCall(f func()) {
	done := make(chan interface{}, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	select {
	case r := <-done:
		if r != nil {
			panic(r)
		}
	case <-ipcTime.After(ipcWait):
		panic(ipcTimeout{"the call did not return within " + ipcWait.String()})
	}
}

// ipcSpawn starts a counterpart process (killed at the end) and waits until
// it listens on readyPort (TCP; 0: no wait).
func ipcSpawn(readyPort int, argv ...string) *ipcExec.Cmd {
	cmd := ipcExec.Command(argv[0], argv[1:]...)
	cmd.Stdout = ipcOS.Stderr
	cmd.Stderr = ipcOS.Stderr
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	ipcMu.Lock()
	ipcSpawned = append(ipcSpawned, cmd)
	ipcMu.Unlock()
	if readyPort > 0 {
		ipcWaitPort(readyPort)
	}
	return cmd
}

// ipcHTTP performs one request; returns the status and body text.
func ipcRequest(method, url, body string, headers map[string]string) (int, string, error) {
	var reader ipcIO.Reader
	if body != "" {
		reader = ipcStrings.NewReader(body)
	}
	req, err := ipcHTTP.NewRequest(method, url, reader)
	if err != nil {
		return 0, "", err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	client := &ipcHTTP.Client{Timeout: ipcWait}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	data, err := ipcIoutil.ReadAll(resp.Body)
	return resp.StatusCode, string(data), err
}

// ipcTCPExchange connects, sends data and returns what comes back until the
// peer closes or is quiet for 300 ms after sending something.
func ipcTCPExchange(port int, data string) (string, error) {
	conn, err := ipcNet.DialTimeout("tcp", ipcFmt.Sprintf("127.0.0.1:%d", port), ipcWait)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if data != "" {
		if _, err := conn.Write([]byte(data)); err != nil {
			return "", err
		}
	}
	var got ipcBytes.Buffer
	buf := make([]byte, 65536)
	deadline := ipcTime.Now().Add(ipcWait)
	for {
		wait := deadline
		if got.Len() > 0 {
			wait = ipcTime.Now().Add(300 * ipcTime.Millisecond)
		}
		conn.SetReadDeadline(wait)
		n, err := conn.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			if ne, ok := err.(ipcNet.Error); ok && ne.Timeout() && got.Len() > 0 {
				return got.String(), nil
			}
			if err == ipcIO.EOF {
				return got.String(), nil
			}
			return got.String(), err
		}
	}
}

// ipcUDPExchange sends one datagram and returns the first reply.
func ipcUDPExchange(port int, data string) (string, error) {
	conn, err := ipcNet.Dial("udp", ipcFmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(data)); err != nil {
		return "", err
	}
	conn.SetReadDeadline(ipcTime.Now().Add(ipcWait))
	buf := make([]byte, 65536)
	n, err := conn.Read(buf)
	return string(buf[:n]), err
}

// ipcRecorded is one request an ipcHTTPRecorder received.
type ipcRecorded struct {
	Method, Path, Query, Body string
	Header                    ipcHTTP.Header
}

// ipcHTTPRecorder records the requests of an HTTP server on 127.0.0.1:port
// and answers each with status and body.
type ipcHTTPRecorder struct {
	mu       ipcSync.Mutex
	requests []ipcRecorded
}

func ipcNewHTTPRecorder(port int, status int, body string) *ipcHTTPRecorder {
	r := &ipcHTTPRecorder{}
	listener, err := ipcNet.Listen("tcp", ipcFmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		panic(err)
	}
	go ipcHTTP.Serve(listener, ipcHTTP.HandlerFunc(func(w ipcHTTP.ResponseWriter, req *ipcHTTP.Request) {
		data, _ := ipcIoutil.ReadAll(req.Body)
		w.WriteHeader(status)
		w.Write([]byte(body))
		r.mu.Lock()
		r.requests = append(r.requests, ipcRecorded{req.Method, req.URL.Path, req.URL.RawQuery, string(data), req.Header})
		r.mu.Unlock()
	}))
	return r
}

// Wait returns the requests once n were recorded (panics with ipcNotReady after ipcWait).
func (r *ipcHTTPRecorder) Wait(n int) []ipcRecorded {
	ipcWaitUntil(func() bool { r.mu.Lock(); defer r.mu.Unlock(); return len(r.requests) >= n }, ipcFmt.Sprintf("%d recorded request(s)", n))
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ipcRecorded(nil), r.requests...)
}

// ipcTCPRecorder records what each connection to 127.0.0.1:port sent
// (complete once the peer closed or was quiet for 500 ms) and answers the
// first data of each connection with reply (unless empty).
type ipcTCPRecorder struct {
	mu          ipcSync.Mutex
	connections []string
}

func ipcNewTCPRecorder(port int, reply string) *ipcTCPRecorder {
	r := &ipcTCPRecorder{}
	listener, err := ipcNet.Listen("tcp", ipcFmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		panic(err)
	}
	go func() {
		for {
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			go func(c ipcNet.Conn) {
				defer c.Close()
				var got ipcBytes.Buffer
				reader := ipcBufio.NewReader(c)
				buf := make([]byte, 65536)
				replied := false
				for {
					c.SetReadDeadline(ipcTime.Now().Add(500 * ipcTime.Millisecond))
					n, err := reader.Read(buf)
					got.Write(buf[:n])
					if n > 0 && !replied && reply != "" {
						c.Write([]byte(reply))
						replied = true
					}
					if err != nil {
						if ne, ok := err.(ipcNet.Error); ok && ne.Timeout() && got.Len() == 0 {
							continue
						}
						break
					}
				}
				r.mu.Lock()
				r.connections = append(r.connections, got.String())
				r.mu.Unlock()
			}(conn)
		}
	}()
	return r
}

// Wait returns the connections' data once n were recorded.
func (r *ipcTCPRecorder) Wait(n int) []string {
	ipcWaitUntil(func() bool { r.mu.Lock(); defer r.mu.Unlock(); return len(r.connections) >= n }, ipcFmt.Sprintf("%d recorded connection(s)", n))
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.connections...)
}

// ipcUDPRecorder records datagrams sent to 127.0.0.1:port and answers each
// with reply (unless empty).
type ipcUDPRecorder struct {
	mu        ipcSync.Mutex
	datagrams []string
}

func ipcNewUDPRecorder(port int, reply string) *ipcUDPRecorder {
	r := &ipcUDPRecorder{}
	conn, err := ipcNet.ListenPacket("udp", ipcFmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		panic(err)
	}
	go func() {
		buf := make([]byte, 65536)
		for {
			n, peer, err := conn.ReadFrom(buf)
			if err != nil {
				return
			}
			r.mu.Lock()
			r.datagrams = append(r.datagrams, string(buf[:n]))
			r.mu.Unlock()
			if reply != "" {
				conn.WriteTo([]byte(reply), peer)
			}
		}
	}()
	return r
}

// Wait returns the datagrams once n were recorded.
func (r *ipcUDPRecorder) Wait(n int) []string {
	ipcWaitUntil(func() bool { r.mu.Lock(); defer r.mu.Unlock(); return len(r.datagrams) >= n }, ipcFmt.Sprintf("%d recorded datagram(s)", n))
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.datagrams...)
}

// ipcCapture collects what the program prints to os.Stdout and os.Stderr
// from now on (the log package's default output included), still printing it.
type ipcCapture struct {
	mu   ipcSync.Mutex
	text ipcBytes.Buffer
}

func (c *ipcCapture) Text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.text.String()
}

func ipcCaptureOutput() *ipcCapture {
	c := &ipcCapture{}
	for _, target := range []**ipcOS.File{&ipcOS.Stdout, &ipcOS.Stderr} {
		original := *target
		r, w, err := ipcOS.Pipe()
		if err != nil {
			panic(err)
		}
		*target = w
		go func() {
			buf := make([]byte, 4096)
			for {
				n, err := r.Read(buf)
				if n > 0 {
					c.mu.Lock()
					c.text.Write(buf[:n])
					c.mu.Unlock()
					original.Write(buf[:n])
				}
				if err != nil {
					return
				}
			}
		}()
	}
	ipcLog.SetOutput(ipcOS.Stderr)
	return c
}

func ipcStop(code int) {
	ipcMu.Lock()
	for _, cmd := range ipcSpawned {
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
	}
	ipcMu.Unlock()
	ipcOS.Exit(code)
}

func main() {
	defer func() {
		if r := recover(); r != nil {
			ipcFmt.Fprintf(ipcStderr, "driver failed: %T: %v\n%s", r, r, ipcRuntimeDebug.Stack())
			ipcStop(1)
		}
	}()
	ipcDriver()
	polyevalFinish()
	ipcStop(0)
}
