package argo

// Zone data compiled in (about 400 kB), so that `timezone` is validated the same on every machine
// that plans, with or without /usr/share/zoneinfo.
import _ "time/tzdata"
