type MNS struct{ machines []int }

func NewMNS(machines []int) *MNS { return &MNS{machines: machines} }

func (m *MNS) public_Ministeps() int {
	// body
	return m.private_Ministeps() + 0
}

func (m *MNS) private_Ministeps() int {
	n, total := len(m.machines), 0
	for _, x := range m.machines {
		total += x
	}
	if n == 0 || total%n != 0 {
		return -1
	}
	avg, run, best := total/n, 0, 0
	for _, x := range m.machines {
		d := x - avg
		run += d
		a := run
		if a < 0 {
			a = -a
		}
		if a > best {
			best = a
		}
		if d > best {
			best = d
		}
	}
	return best
}
