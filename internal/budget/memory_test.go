package budget

import "testing"

// TestBytes: sizes read as the command line gives them, and written
// back the same way.
func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		back string
	}{
		{"512M", 512 << 20, "512M"},
		{"4G", 4 << 30, "4G"},
		{"1.5GiB", 3 << 29, "1.5G"},
		{"1000000", 1000000, "977K"},
		{"12", 12, "12"},
	} {
		got, err := ParseBytes(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
		if back := FormatBytes(got); back != tc.back {
			t.Errorf("FormatBytes(%d) = %q, want %q", got, back, tc.back)
		}
	}
	for _, bad := range []string{"", "x", "-1G", "4X"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) took it", bad)
		}
	}
}
