package main

import (
	"runtime/debug"
	"strings"
)

// version is bmc's version as the build recorded it: the module's
// version (which Go derives from the checkout's revision and time when
// the build stamps it, make build does) or "(devel)", the revision if
// the version does not name it, and the Go release.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" && !strings.Contains(v, rev[:min(len(rev), 12)]) {
		v += " " + rev[:min(len(rev), 12)]
		if settings["vcs.modified"] == "true" {
			v += "+dirty"
		}
	}
	return v + " " + info.GoVersion
}
