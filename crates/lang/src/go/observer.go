// polyeval judge observer (Go). Imports are aliased so they never clash
// with (or duplicate) the candidate's. Values are read with reflect, without
// calling the candidate's methods (no String(), no MarshalJSON); expected
// values are compared outside the sandbox.
import (
	polyevalMath "math"
	polyevalOS "os"
	polyevalReflect "reflect"
	polyevalStrconv "strconv"
	polyevalStrings "strings"
)

// polyeval:body

var polyevalStdout = polyevalOS.NewFile(1, "stdout")

func polyevalEmit(json string) {
	b := []byte("\n\x1epolyeval-judge " + json + "\n")
	for len(b) > 0 {
		n, err := polyevalStdout.Write(b)
		if err != nil && n == 0 {
			return
		}
		b = b[n:]
	}
}

func polyevalQuote(s string) string {
	var sb polyevalStrings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString("\\\"")
		case '\\':
			sb.WriteString("\\\\")
		case '\n':
			sb.WriteString("\\n")
		case '\r':
			sb.WriteString("\\r")
		case '\t':
			sb.WriteString("\\t")
		default:
			if r < 0x20 || r == 0x7f {
				sb.WriteString("\\u00")
				sb.WriteString(polyevalStrconv.FormatInt(int64(r)>>4, 16))
				sb.WriteString(polyevalStrconv.FormatInt(int64(r)&15, 16))
			} else {
				sb.WriteRune(r)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

func polyevalFloat(f float64) string {
	if polyevalMath.IsNaN(f) {
		return `{"float":"nan"}`
	}
	if polyevalMath.IsInf(f, 1) {
		return `{"float":"inf"}`
	}
	if polyevalMath.IsInf(f, -1) {
		return `{"float":"-inf"}`
	}
	t := polyevalStrconv.FormatFloat(f, 'g', -1, 64)
	if !polyevalStrings.ContainsAny(t, ".e") {
		t += ".0"
	}
	return t
}

func polyevalEnc(v polyevalReflect.Value, depth int) string {
	if depth > 100 {
		return `{"truncated":null}`
	}
	if !v.IsValid() {
		return "null"
	}
	switch v.Kind() {
	case polyevalReflect.Bool:
		if v.Bool() {
			return "true"
		}
		return "false"
	case polyevalReflect.Int, polyevalReflect.Int8, polyevalReflect.Int16, polyevalReflect.Int32, polyevalReflect.Int64:
		return polyevalStrconv.FormatInt(v.Int(), 10)
	case polyevalReflect.Uint, polyevalReflect.Uint8, polyevalReflect.Uint16, polyevalReflect.Uint32, polyevalReflect.Uint64, polyevalReflect.Uintptr:
		u := v.Uint()
		if u <= 1<<63-1 {
			return polyevalStrconv.FormatUint(u, 10)
		}
		return `{"int":"` + polyevalStrconv.FormatUint(u, 10) + `"}`
	case polyevalReflect.Float32, polyevalReflect.Float64:
		return polyevalFloat(v.Float())
	case polyevalReflect.String:
		return polyevalQuote(v.String())
	case polyevalReflect.Slice, polyevalReflect.Array:
		if v.Kind() == polyevalReflect.Slice && v.IsNil() {
			return "[]"
		}
		parts := make([]string, 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			parts = append(parts, polyevalEnc(v.Index(i), depth+1))
		}
		return "[" + polyevalStrings.Join(parts, ",") + "]"
	case polyevalReflect.Map:
		parts := make([]string, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			parts = append(parts, "["+polyevalEnc(it.Key(), depth+1)+","+polyevalEnc(it.Value(), depth+1)+"]")
		}
		return `{"map":[` + polyevalStrings.Join(parts, ",") + "]}"
	case polyevalReflect.Ptr, polyevalReflect.Interface:
		if v.IsNil() {
			return "null"
		}
		return polyevalEnc(v.Elem(), depth+1)
	case polyevalReflect.Struct:
		t := v.Type()
		parts := make([]string, 0, v.NumField())
		for i := 0; i < v.NumField(); i++ {
			parts = append(parts, "["+polyevalQuote(t.Field(i).Name)+","+polyevalEnc(v.Field(i), depth+1)+"]")
		}
		return `{"object":` + polyevalQuote(t.String()) + `,"fields":[` + polyevalStrings.Join(parts, ",") + "]}"
	}
	return `{"object":` + polyevalQuote(v.Type().String()) + "}"
}

func polyevalRaised(t int, r interface{}) {
	typ := polyevalReflect.TypeOf(r)
	name := "nil"
	if typ != nil {
		name = typ.String()
	}
	message := ""
	if e, ok := r.(error); ok {
		func() {
			defer func() { _ = recover() }()
			message = e.Error()
		}()
	} else if s, ok := r.(string); ok {
		message = s
	}
	if len(message) > 500 {
		message = message[:500]
	}
	polyevalEmit(`{"t":` + polyevalStrconv.Itoa(t) + `,"raised":{"type":` + polyevalQuote(name) + `,"message":` + polyevalQuote(message) + "}}")
}

// polyevalObserve reports the value f returns; a panic is reported and re-raised.
func polyevalObserve(t int, f func() interface{}) {
	var v interface{}
	func() {
		defer func() {
			if r := recover(); r != nil {
				polyevalRaised(t, r)
				panic(r)
			}
		}()
		v = f()
	}()
	polyevalEmit(`{"t":` + polyevalStrconv.Itoa(t) + `,"v":` + polyevalEnc(polyevalReflect.ValueOf(v), 0) + "}")
}

func polyevalFinish() {
	polyevalEmit(`{"end":null}`)
}

// Calls of polyeval's regenerated MultiOOP suites (`polyeval translate`):
// `polyevalCall(f, args…)` calls the function or method expression `f`
// (`NewC`, `(*C).m`), converting each plain value (numbers, strings,
// booleans, `polyevalList(…)`) to the parameter type the candidate declared
// (`[]int`, `[]int64`, `[]uint`, `[]float32`, `[][]int`, `[N]int`, `[]byte`
// or `[]rune` for a string, named types of these …), and the receiver to a
// pointer or a value as the method wants. A value the type cannot hold is
// no fit (a panic). Nothing is compared here.
type polyevalSeq []interface{}

func polyevalList(items ...interface{}) polyevalSeq { return polyevalSeq(items) }

func polyevalCall(f interface{}, args ...interface{}) interface{} {
	fv := polyevalReflect.ValueOf(f)
	ft := fv.Type()
	if ft.NumIn() != len(args) {
		panic("polyeval: the function takes " + polyevalStrconv.Itoa(ft.NumIn()) + " arguments, the test passes " + polyevalStrconv.Itoa(len(args)))
	}
	in := make([]polyevalReflect.Value, len(args))
	for i, a := range args {
		v, ok := polyevalConvert(a, ft.In(i))
		if !ok {
			panic("polyeval: argument " + polyevalStrconv.Itoa(i+1) + " does not fit the parameter type " + ft.In(i).String())
		}
		in[i] = v
	}
	var out []polyevalReflect.Value
	if ft.IsVariadic() {
		out = fv.CallSlice(in)
	} else {
		out = fv.Call(in)
	}
	if len(out) == 0 {
		return nil
	}
	// Several results (a value and an error or ok flag): the value.
	return out[0].Interface()
}

// A plain value as Go reads an untyped value: nested lists as []interface{}.
func polyevalNatural(a interface{}) interface{} {
	if s, ok := a.(polyevalSeq); ok {
		out := make([]interface{}, len(s))
		for i, x := range s {
			out[i] = polyevalNatural(x)
		}
		return out
	}
	return a
}

func polyevalConvert(a interface{}, t polyevalReflect.Type) (polyevalReflect.Value, bool) {
	var none polyevalReflect.Value
	switch x := a.(type) {
	case polyevalSeq:
		switch t.Kind() {
		case polyevalReflect.Slice, polyevalReflect.Array:
			var out polyevalReflect.Value
			if t.Kind() == polyevalReflect.Slice {
				out = polyevalReflect.MakeSlice(t, len(x), len(x))
			} else {
				if t.Len() != len(x) {
					return none, false
				}
				out = polyevalReflect.New(t).Elem()
			}
			for i, item := range x {
				v, ok := polyevalConvert(item, t.Elem())
				if !ok {
					return none, false
				}
				out.Index(i).Set(v)
			}
			return out, true
		case polyevalReflect.Interface:
			n := polyevalNatural(x)
			if polyevalReflect.TypeOf(n).AssignableTo(t) {
				return polyevalReflect.ValueOf(n), true
			}
		}
		return none, false
	case int:
		v := polyevalReflect.New(t).Elem()
		switch t.Kind() {
		case polyevalReflect.Int, polyevalReflect.Int8, polyevalReflect.Int16, polyevalReflect.Int32, polyevalReflect.Int64:
			if v.OverflowInt(int64(x)) {
				return none, false
			}
			v.SetInt(int64(x))
			return v, true
		case polyevalReflect.Uint, polyevalReflect.Uint8, polyevalReflect.Uint16, polyevalReflect.Uint32, polyevalReflect.Uint64, polyevalReflect.Uintptr:
			if x < 0 || v.OverflowUint(uint64(x)) {
				return none, false
			}
			v.SetUint(uint64(x))
			return v, true
		case polyevalReflect.Float32, polyevalReflect.Float64:
			v.SetFloat(float64(x))
			return v, true
		}
	case float64:
		if t.Kind() == polyevalReflect.Float32 || t.Kind() == polyevalReflect.Float64 {
			v := polyevalReflect.New(t).Elem()
			v.SetFloat(x)
			return v, true
		}
	case string:
		switch t.Kind() {
		case polyevalReflect.String:
			return polyevalReflect.ValueOf(x).Convert(t), true
		case polyevalReflect.Slice:
			if k := t.Elem().Kind(); k == polyevalReflect.Uint8 || k == polyevalReflect.Int32 {
				return polyevalReflect.ValueOf(x).Convert(t), true
			}
		}
	case bool:
		if t.Kind() == polyevalReflect.Bool {
			return polyevalReflect.ValueOf(x).Convert(t), true
		}
	}
	if a == nil {
		return none, false
	}
	v := polyevalReflect.ValueOf(a)
	if v.Type().AssignableTo(t) {
		return v, true
	}
	// A receiver: the value where the method wants a pointer, or the reverse.
	if t.Kind() == polyevalReflect.Ptr && v.Type().AssignableTo(t.Elem()) {
		p := polyevalReflect.New(t.Elem())
		p.Elem().Set(v)
		return p, true
	}
	if v.Kind() == polyevalReflect.Ptr && !v.IsNil() && v.Elem().Type().AssignableTo(t) {
		return v.Elem(), true
	}
	return none, false
}
