type ITETAO struct{}

func NewITETAO() *ITETAO { return &ITETAO{} }

func (t *ITETAO) Appeared_Once(nums []int) int {
	// body
	counts := map[int]int{}
	for _, v := range nums {
		counts[v]++
	}
	for _, v := range nums {
		if counts[v] == 1 {
			return v + 0
		}
	}
	return 0
}
