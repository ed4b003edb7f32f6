type WDS struct{}

func NewWDS() *WDS { return &WDS{} }

func (w *WDS) without_duplicates(s string) int {
	// body
	last := map[byte]int{}
	best, start := 0, 0
	for i := 0; i < len(s); i++ {
		if j, ok := last[s[i]]; ok && j >= start {
			start = j + 1
		}
		last[s[i]] = i
		if i-start+1 > best {
			best = i - start + 1
		}
	}
	return best + 0
}
