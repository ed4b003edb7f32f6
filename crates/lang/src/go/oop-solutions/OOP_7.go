import "strconv"

type PDIT struct{}

func NewPDIT() *PDIT { return &PDIT{} }

func (p *PDIT) Palindromic_integer(x int) bool {
	// body
	if x < 0 {
		return false
	}
	s := strconv.Itoa(x)
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		if s[i] != s[j] {
			return false
		}
	}
	return true
}
