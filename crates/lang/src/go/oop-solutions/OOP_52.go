import "strings"

type RWO struct{}

func NewRWO() *RWO { return &RWO{} }

func (r *RWO) Reverse_Word_Order(s string) string {
	// body
	words := strings.Fields(s)
	for i, j := 0, len(words)-1; i < j; i, j = i+1, j-1 {
		words[i], words[j] = words[j], words[i]
	}
	return strings.Join(words, " ")
}
