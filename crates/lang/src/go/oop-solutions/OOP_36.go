type CRTP struct{}

func NewCRTP() *CRTP { return &CRTP{} }

func (c *CRTP) climb_rooftop(n int) int {
	// body
	a, b := 1, 1
	for i := 2; i <= n; i++ {
		a, b = b, a+b
	}
	return b + 0
}
