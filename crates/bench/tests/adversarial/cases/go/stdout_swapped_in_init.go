// redteam: task=go_acc expect=nopass  (holds: init() swaps os.Stdout before the harness runs; records are lost, the sample fails)
package main

import "os"

type Acc struct{}

func (a *Acc) Add(x, y int) int { return 0 }

func (a *Acc) Greet(n string) string { return "" }

func init() {
	f, _ := os.Open("/dev/null")
	os.Stdout = f
}
