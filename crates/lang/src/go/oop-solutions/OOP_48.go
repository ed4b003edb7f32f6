import "strings"

type JS struct{}

func NewJS() *JS { return &JS{} }

func (j *JS) Judgment_Splicing(s string, words []string) bool {
	// body
	ok := make([]bool, len(s)+1)
	ok[0] = true
	for i := 1; i <= len(s); i++ {
		for _, w := range words {
			if len(w) <= i && ok[i-len(w)] && strings.HasPrefix(s[i-len(w):], w) {
				ok[i] = true
			}
		}
	}
	return ok[len(s)]
}
