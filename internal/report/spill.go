package report

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/evalgate/evalgate/internal/diag"
)

// The spill encoding of a result (Results): a record of its length (a varint) and its fields in
// declaration order, strings and numbers as varints, evidence as tagged values; a record is read
// whole and decoded from memory. It is private to one run, written and read by
// the same binary, so it has no version; what it must be is exact: a result read back is the
// result that was written, its evidence of the same Go types, so every writer writes the same
// bytes for it.

// Evidence value tags.
const (
	tagNil byte = iota
	tagFalse
	tagTrue
	tagInt
	tagInt64
	tagFloat
	tagString
	tagList
	tagMap
	tagJSON // any other JSON-encodable value, read back as encoding/json reads it (numbers as json.Number)
)

// Result flags.
const (
	flagBlocking = 1 << iota
	flagVerdictless
	flagBaselined
	flagEvidence // Evidence is not empty
)

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendResult appends res's encoding to b.
func appendResult(b []byte, res *diag.Result) []byte {
	b = binary.AppendUvarint(b, uint64(res.Source))
	b = appendString(b, res.File)
	b = binary.AppendVarint(b, int64(res.Pos.Line))
	b = binary.AppendVarint(b, int64(res.Pos.Col))
	for _, s := range []string{res.Check, res.CaseID, res.Grader, res.Type, string(res.Outcome)} {
		b = appendString(b, s)
	}
	b = binary.AppendVarint(b, int64(res.Severity))
	var flags byte
	for _, f := range []struct {
		on   bool
		flag byte
	}{{res.Blocking, flagBlocking}, {res.Verdictless, flagVerdictless}, {res.Baselined, flagBaselined}, {len(res.Evidence) > 0, flagEvidence}} {
		if f.on {
			flags |= f.flag
		}
	}
	b = append(b, flags)
	b = appendString(b, res.Code)
	b = appendString(b, res.Message)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(res.Weight))
	b = binary.AppendVarint(b, res.DurationMS)
	b = appendString(b, res.Key)
	b = appendString(b, res.Assertion)
	if len(res.Evidence) > 0 { // empty evidence reads back as none: every format writes them alike
		b = appendMap(b, res.Evidence)
	}
	return b
}

func appendMap(b []byte, m map[string]any) []byte {
	b = binary.AppendUvarint(b, uint64(len(m)))
	for k, v := range m {
		b = appendString(b, k)
		b = appendValue(b, v)
	}
	return b
}

func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, tagNil)
	case bool:
		if x {
			return append(b, tagTrue)
		}
		return append(b, tagFalse)
	case int:
		return binary.AppendVarint(append(b, tagInt), int64(x))
	case int64:
		return binary.AppendVarint(append(b, tagInt64), x)
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, tagFloat), math.Float64bits(x))
	case string:
		return appendString(append(b, tagString), x)
	case []any:
		if x == nil {
			return append(b, tagNil) // JSON null, as a nil list is written
		}
		b = binary.AppendUvarint(append(b, tagList), uint64(len(x)))
		for _, e := range x {
			b = appendValue(b, e)
		}
		return b
	case map[string]any:
		if x == nil {
			return append(b, tagNil)
		}
		return appendMap(append(b, tagMap), x)
	}
	js, err := json.Marshal(v)
	if err != nil {
		js, _ = json.Marshal(err.Error()) // as the JSON report would fail to write it, a string says why
	}
	return appendString(append(b, tagJSON), string(js))
}

// appendRecord appends res as one record of a run: its encoding's length, then the encoding.
func appendRecord(b []byte, res *diag.Result) []byte {
	at := len(b)
	b = appendResult(b, res)
	n := len(b) - at
	var size [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(size[:], uint64(n))
	b = append(b, size[:k]...)
	copy(b[at+k:], b[at:at+n])
	copy(b[at:], size[:k])
	return b
}

// decoder reads results back, a record at a time into its buffer. Results in report order share
// most of their strings with the one before them (the file, the check, the code, often the
// message): it keeps each field's last string and reuses it when the bytes are the same, so that
// reading a million results does not allocate a million copies of each. So with evidence: a result
// whose evidence is encoded as the last one's was shares its map (jev's unchanged fields all name
// the same replay). Nothing changes a result's evidence once it is made, so sharing is safe.
type decoder struct {
	buf  []byte
	rec  []byte // what is left of the record being read
	last [fieldCount]string
	// lastEvidence is the encoding of the last evidence read, lastMap what it was read as.
	lastEvidence []byte
	lastMap      map[string]any
}

// The string fields, indexes into decoder.last.
const (
	fieldFile = iota
	fieldCheck
	fieldCaseID
	fieldGrader
	fieldType
	fieldOutcome
	fieldCode
	fieldMessage
	fieldKey
	fieldAssertion
	fieldCount
)

// maxDepth bounds the nesting read back: evidence is never deeper (its JSON is read with a limit of
// 1,000), so a deeper file is damaged.
const maxDepth = 10_000

var errSpill = errors.New("report: the results' temporary file is damaged")

// record reads the next record into d.rec; io.EOF at the end of the run.
func (d *decoder) record(rd *bufio.Reader) error {
	n, err := binary.ReadUvarint(rd)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		return errSpill
	}
	if n > math.MaxInt32 {
		return errSpill
	}
	// Grown as the bytes come, not to the length first: a damaged length cannot allocate more
	// than the file holds.
	d.buf = d.buf[:0]
	for uint64(len(d.buf)) < n {
		k := int(min(n-uint64(len(d.buf)), 64<<10))
		d.buf = slices.Grow(d.buf, k)
		if _, err := io.ReadFull(rd, d.buf[len(d.buf):len(d.buf)+k]); err != nil {
			return errSpill
		}
		d.buf = d.buf[:len(d.buf)+k]
	}
	d.rec = d.buf
	return nil
}

func (d *decoder) uvarint() (uint64, error) { return take(d, binary.Uvarint) }

func (d *decoder) varint() (int64, error) { return take(d, binary.Varint) }

// take reads a number off the record with read, which returns it and the bytes it took (none: no number).
func take[T any](d *decoder, read func([]byte) (T, int)) (T, error) {
	v, n := read(d.rec)
	if n <= 0 {
		var zero T
		return zero, errSpill
	}
	d.rec = d.rec[n:]
	return v, nil
}

func (d *decoder) byte() (byte, error) {
	if len(d.rec) == 0 {
		return 0, errSpill
	}
	c := d.rec[0]
	d.rec = d.rec[1:]
	return c, nil
}

func (d *decoder) float() (float64, error) {
	if len(d.rec) < 8 {
		return 0, errSpill
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.rec))
	d.rec = d.rec[8:]
	return v, nil
}

func (d *decoder) bytes() ([]byte, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.rec)) {
		return nil, errSpill
	}
	b := d.rec[:n]
	d.rec = d.rec[n:]
	return b, nil
}

// str reads a string; field is its decoder.last, or -1 for one not kept.
func (d *decoder) str(field int) (string, error) {
	b, err := d.bytes()
	if err != nil || field < 0 {
		return string(b), err
	}
	if d.last[field] != string(b) {
		d.last[field] = string(b)
	}
	return d.last[field], nil
}

// read reads one result, with its evidence or without; io.EOF when the run is done.
func (d *decoder) read(rd *bufio.Reader, evidence bool) (diag.Result, error) {
	if err := d.record(rd); err != nil {
		return diag.Result{}, err
	}
	res, err := d.result(evidence)
	if err == nil && len(d.rec) > 0 {
		err = errSpill // the record holds more than a result
	}
	return res, err
}

// result decodes the result d.rec holds; without evidence, the evidence (the record's last field) is
// passed over.
func (d *decoder) result(evidence bool) (diag.Result, error) {
	var res diag.Result
	src, err := d.uvarint()
	if err != nil {
		return res, err
	}
	res.Source = diag.Source(src)
	if res.File, err = d.str(fieldFile); err != nil {
		return res, err
	}
	var nums [2]int64
	for i := range nums {
		if nums[i], err = d.varint(); err != nil {
			return res, err
		}
	}
	res.Pos = diag.Pos{Line: int(nums[0]), Col: int(nums[1])}
	var outcome string
	for i, s := range []*string{&res.Check, &res.CaseID, &res.Grader, &res.Type, &outcome} {
		if *s, err = d.str(fieldCheck + i); err != nil {
			return res, err
		}
	}
	res.Outcome = diag.Outcome(outcome)
	sev, err := d.varint()
	if err != nil {
		return res, err
	}
	res.Severity = diag.Severity(sev)
	flags, err := d.byte()
	if err != nil {
		return res, err
	}
	res.Blocking, res.Verdictless, res.Baselined = flags&flagBlocking != 0, flags&flagVerdictless != 0, flags&flagBaselined != 0
	if res.Code, err = d.str(fieldCode); err != nil {
		return res, err
	}
	if res.Message, err = d.str(fieldMessage); err != nil {
		return res, err
	}
	if res.Weight, err = d.float(); err != nil {
		return res, err
	}
	if res.DurationMS, err = d.varint(); err != nil {
		return res, err
	}
	if res.Key, err = d.str(fieldKey); err != nil {
		return res, err
	}
	if res.Assertion, err = d.str(fieldAssertion); err != nil {
		return res, err
	}
	switch {
	case flags&flagEvidence == 0:
	case !evidence:
		d.rec = nil // the rest of the record is the evidence
	case d.lastMap != nil && bytes.Equal(d.rec, d.lastEvidence):
		res.Evidence, d.rec = d.lastMap, nil
	default:
		enc := d.rec
		if res.Evidence, err = d.readMap(0); err == nil {
			d.lastEvidence, d.lastMap = append(d.lastEvidence[:0], enc[:len(enc)-len(d.rec)]...), res.Evidence
		}
	}
	return res, err
}

func (d *decoder) readMap(depth int) (map[string]any, error) {
	n, err := d.uvarint()
	if err != nil || n > uint64(len(d.rec)) || depth > maxDepth { // each entry takes at least a byte
		return nil, errSpill
	}
	m := make(map[string]any, n)
	for range n {
		k, err := d.str(-1)
		if err != nil {
			return nil, err
		}
		if m[k], err = d.readValue(depth + 1); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (d *decoder) readValue(depth int) (any, error) {
	tag, err := d.byte()
	if err != nil {
		return nil, err
	}
	switch tag {
	case tagNil:
		return nil, nil
	case tagFalse, tagTrue:
		return tag == tagTrue, nil
	case tagInt:
		v, err := d.varint()
		return int(v), err
	case tagInt64:
		return d.varint()
	case tagFloat:
		return d.float()
	case tagString:
		return d.str(-1)
	case tagList:
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.rec)) || depth > maxDepth {
			return nil, errSpill
		}
		out := make([]any, 0, n)
		for range n {
			v, err := d.readValue(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case tagMap:
		return d.readMap(depth + 1)
	case tagJSON:
		js, err := d.bytes()
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%w: %v", errSpill, err)
		}
		return v, nil
	}
	return nil, errSpill
}
