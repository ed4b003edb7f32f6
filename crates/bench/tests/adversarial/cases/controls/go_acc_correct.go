// redteam: task=go_acc expect=pass  (control)
package main

type Acc struct{}

func (a *Acc) Add(x, y int) int { return x + y }

func (a *Acc) Greet(n string) string { return "hi " + n }
