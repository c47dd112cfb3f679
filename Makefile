# Shfl — build, test and run. `make test` is what CI runs (.ci/run); `make demo` runs the player.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

SWIFT ?= swift
ARM64_PKG_CONFIG := /usr/lib/aarch64-linux-gnu/pkgconfig
# Where the firmware binaries land: out/firmware/<arch>/shfl
OUT := out
# Temporary files of everything make runs (the tests' and benches' own folders, and the ones the
# Swift toolchain leaves behind, /tmp/TemporaryDirectory.*) stay in this ignored folder;
# `make test` empties it when it passes, `make clean` removes it.
export TMPDIR := $(CURDIR)/.build-tmp
$(shell mkdir -p $(TMPDIR))

.PHONY: help deps deps-host deps-firmware deps-bench deps-vboard deps-deb deps-image deb test-deb image image-test vboard-test bench build demo test test-host test-core-purity firmware firmware-x86_64 firmware-aarch64 test-firmware test-e2e clean

help:
	@echo "make demo    build the player and run it here: keyboard buttons, LED in the terminal, audio"
	@echo "make test    install what is missing, run every test and both firmware builds"
	@echo "make bench   print the audio benchmark (instructions and peak RSS against mpg123, mpd)"
	@echo "make vboard-test  the aarch64 firmware on an emulated arm64 board (QEMU): GPIO, USB stick, ALSA"
	@echo "make firmware  build the Embedded Swift firmware for aarch64 and x86_64 into $(OUT)/firmware"
	@echo "make deb     the Debian packages $(OUT)/deb/shfl_<version>_arm64.deb and _amd64.deb"
	@echo "make image   the SD-card image $(OUT)/image/shfl-<version>-raspi-arm64.img.xz (Debian 12 packages)"
	@echo "make image-test  boot that image on QEMU (virt and raspi3b) and check the player under systemd"

deps: deps-host deps-firmware deps-bench deps-deb
deps-host:
	@scripts/install-deps.sh host
deps-firmware:
	@scripts/install-deps.sh firmware
deps-bench:
	@scripts/install-deps.sh bench
deps-vboard:
	@scripts/install-deps.sh vboard
deps-deb:
	@scripts/install-deps.sh deb
deps-image:
	@scripts/install-deps.sh image

build: deps-host
	$(SWIFT) build

# The whole player in this terminal: a generated demo stick, keyboard buttons, the LED drawn,
# audio to the sound card (or to a WAV file it names when there is none). `make demo
# DEMO_STICK=/path/to/mp3s` plays your own folder.
DEMO_STICK ?= .build-demo/stick
demo: build
	tests/fixtures/make-demo-stick.sh .build-demo/stick
	$$($(SWIFT) build --show-bin-path)/shfl demo $(DEMO_STICK) --wav .build-demo/demo.wav

test: deps test-core-purity test-host test-firmware test-e2e vboard-test test-deb bench
	tests/systemd-unit.sh
	rm -rf $(TMPDIR)/*
	@echo "make test: all passed"

# Benchmarks print numbers (ratios against peers measured in the same run); they assert nothing.
bench: deps-bench firmware-x86_64 build
	bench/audio.sh
	bench/daemon.sh
	python3 bench/button-latency.py $(OUT)/firmware/x86_64/shfl .build-fixtures/audio

# The core stays pure: no C module, no Glibc, no Foundation (STYLE.md).
test-core-purity:
	@if grep -rnE "^\s*(@_?[a-zA-Z]+ )*import " Sources/ShflCore; then \
	  echo "Sources/ShflCore must import nothing (see the lines above)"; exit 1; fi
	@echo "ok   Sources/ShflCore imports nothing"

test-host: deps-host
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

firmware: firmware-x86_64 firmware-aarch64

# The firmware: Embedded Swift, cross-built by SwiftPM with the toolsets under board/.
firmware-x86_64: deps-firmware
	$(SWIFT) build -c release --triple x86_64-unknown-none-elf --toolset board/toolset-x86_64.json \
	  --scratch-path .build-firmware-x86_64 --product shfl
	@mkdir -p $(OUT)/firmware/x86_64
	cp .build-firmware-x86_64/release/shfl $(OUT)/firmware/x86_64/shfl
	strip -o $(OUT)/firmware/x86_64/shfl.stripped $(OUT)/firmware/x86_64/shfl

firmware-aarch64: deps-firmware
	$(SWIFT) build -c release --triple aarch64-none-none-elf --toolset board/toolset-aarch64.json \
	  --pkg-config-path $(ARM64_PKG_CONFIG) --scratch-path .build-firmware-aarch64 --product shfl
	@mkdir -p $(OUT)/firmware/aarch64
	cp .build-firmware-aarch64/release/shfl $(OUT)/firmware/aarch64/shfl
	aarch64-linux-gnu-strip -o $(OUT)/firmware/aarch64/shfl.stripped $(OUT)/firmware/aarch64/shfl

test-firmware: firmware
	tests/firmware.sh $(OUT)/firmware

# The firmware binary itself as the daemon: sticks, audio bytes, LED trace (both architectures).
test-e2e: firmware
	tests/e2e.sh x86_64 $(OUT)/firmware/x86_64/shfl
	tests/e2e.sh aarch64 $(OUT)/firmware/aarch64/shfl

# The virtual board (board/vboard/): the aarch64 firmware on QEMU's emulated arm64 board, with
# the kernel's GPIO, USB stick hot-plug and ALSA; buttons, LED, stick and audio asserted.
vboard-test: deps-host deps-vboard firmware-aarch64
	board/vboard/vboard-test.sh $(OUT)/firmware/aarch64/shfl

# The Debian packages, from the stripped firmware (scripts/build-deb.sh; DEVELOPERS.md, "The
# Debian package"): $(OUT)/deb/shfl_<version>_arm64.deb and shfl_<version>_amd64.deb.
deb: deps-deb firmware
	scripts/build-deb.sh arm64 $(OUT)/firmware $(OUT)/deb
	scripts/build-deb.sh amd64 $(OUT)/firmware $(OUT)/deb

# The packages installed with apt into Debian 12 roots (arm64 under qemu-user, amd64), upgraded
# and purged; lintian on both. Roots and downloaded packages are cached in .build-deb/ (kept by
# make clean, like the other download caches).
test-deb: deb
	tests/deb.sh $(OUT)/deb


# The SD-card image (image/README.md): Debian 12's arm64 packages (mmdebstrap, cached in
# .build-image/), the arm64 package from `make deb`, a read-only root, the state partition;
# out/image/shfl-<version>-raspi-arm64.img.xz, its .sha256 and a Pi Imager entry.
image: deps-image deb
	image/build.sh $(OUT)/deb/shfl_$$(dpkg-parsechangelog -l debian/changelog -SVersion)_arm64.deb $(OUT)/image .build-image

# The image booted on QEMU's virt (systemd, sandbox, stick, buttons, audio, power cut, watchdog,
# power-off hold) and raspi3b (board, LED, USB stick). Its own CI step (.ci/run), after make test.
image-test: deps-image deps-vboard deps-host
	image/test/image-test.sh $$(ls -t $(OUT)/image/shfl-*-raspi-arm64.img | head -1)

# The download caches stay (.build-deb's roots, .build-image's .debs and arm64 root).
clean:
	rm -rf .build .build-firmware-* .build-deb/stage-* .build-image/work .build-image/test .build-tmp $(OUT)
