package corpus

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// BenchDir is the corpus directory, ../shared/bench beside the root of
// module bmc: the nearest directory at or above the working directory
// whose go.mod declares module bmc. Tests run in their package's
// directory, at different depths, so a path relative to the working
// directory would be right for some packages only. The directory need
// not exist; the error says that no module root was found.
func BenchDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if moduleName(filepath.Join(dir, "go.mod")) == "bmc" {
			return filepath.Join(filepath.Dir(dir), "shared", "bench"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of module bmc at or above the working directory")
		}
		dir = parent
	}
}

// moduleName is the module a go.mod file declares, or "".
func moduleName(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if words := strings.Fields(sc.Text()); len(words) > 1 && words[0] == "module" {
			return strings.Trim(words[1], `"`)
		}
	}
	return ""
}
