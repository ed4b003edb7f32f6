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
