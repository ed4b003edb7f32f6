import "sort"

type FTM struct{}

func NewFTM() *FTM { return &FTM{} }

func (f *FTM) find_the_median(a []int, b []int) float64 {
	// body
	all := append(append([]int{}, a...), b...)
	sort.Ints(all)
	n := len(all)
	var m float64
	if n%2 == 1 {
		m = float64(all[n/2])
	} else {
		m = float64(all[n/2-1]+all[n/2]) / 2
	}
	return m + 0
}
