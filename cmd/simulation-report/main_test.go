package main

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// testdata/plan.json is `terraform show -json` of a plan reading the seed's day (examples/complete's
// profiles through its queues), cut to the data source's values.
const fixture = "testdata/plan.json"

func TestRun_writesChartsOfEveryFlavorAndTeam(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.html")
	if err := run(fixture, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	// Three flavors were in use that day and three teams submitted: a line each, and three wait
	// bars per team.
	for what, want := range map[string]int{`<polyline class="series"`: 6, `<rect class="bar"`: 9, "<h2>data.mlplatform_capacity_simulation.s<": 1} {
		if got := strings.Count(page, what); got != want {
			t.Errorf("%d of %s, want %d", got, what, want)
		}
	}
}

func TestRun_refusesJSONWithoutASimulation(t *testing.T) {
	in := filepath.Join(t.TempDir(), "outputs.json")
	if err := os.WriteFile(in, []byte(`{"queues": {"value": {}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run(in, filepath.Join(t.TempDir(), "x.html")); err == nil || !strings.Contains(err.Error(), "holds no simulation") {
		t.Errorf("got %v, want a refusal naming what is missing", err)
	}
}

// The page renders in a browser: Debian's Chromium, headless, screenshots it, and again without
// its SVG elements; each chart colour covers many more pixels with the charts than without (the
// legends use the colours too), so the charts were laid out and drawn. Without Chromium
// (apt-get install chromium) it skips, saying so.
func TestPage_rendersInChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH (Debian's package chromium): the page is not rendered")
	}
	dir := t.TempDir()
	html := filepath.Join(dir, "report.html")
	if err := run(fixture, html); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.html")
	if err := os.WriteFile(bare, regexp.MustCompile(`(?s)<svg.*?</svg>`).ReplaceAll(b, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	with, without := screenshot(t, browser, html), screenshot(t, browser, bare)
	// The first three colours: the flavors' and the teams' first lines, the p50/p95/max bars.
	for _, c := range palette[:3] {
		if n, base := pixels(with, c), pixels(without, c); n-base < 200 {
			t.Errorf("%s covers %d pixels with the charts and %d without: the charts were not drawn", c, n, base)
		}
	}
}

func screenshot(t *testing.T, browser, page string) image.Image {
	t.Helper()
	dir := t.TempDir()
	shot := filepath.Join(dir, "shot.png")
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=900,2000", "--screenshot="+shot, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// pixels counts the pixels within a small distance of the colour #rrggbb.
func pixels(img image.Image, hex string) int {
	var want [3]int
	for i := range want {
		var v int
		for _, ch := range hex[1+2*i : 3+2*i] {
			v = v*16 + strings.IndexRune("0123456789abcdef", ch)
		}
		want[i] = v
	}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			d := abs(int(r>>8)-want[0]) + abs(int(g>>8)-want[1]) + abs(int(bl>>8)-want[2])
			if d < 30 {
				n++
			}
		}
	}
	return n
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
