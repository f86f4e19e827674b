#!/usr/bin/env python3
"""Writes the fixture trees of the fans, power and backlight readers (FanSensors,
PowerSources, BacklightDevices): Tests/Fixtures/{fans-desktop,fans-none,power-laptop,
power-wrap,power-unreadable,backlight-laptop}.

hwmonN entries are relative symbolic links into the fixture's own sys/devices, as the
kernel's are links into /sys/devices; powercap's intel-rapl:N[:M] entries and the
backlight class's entries likewise. The
power trees come in two steps (1/, 2/): the RAPL counters advance by the figures in
Tests/ProcFSTests/PowerSourcesTests.swift over one second. Run this again after changing
them (it rewrites the trees).
"""
import os

from fixture_files import link, write
import fixture_files


def fresh(name, readme):
    return fixture_files.fresh(name, readme, "make-power-fixtures.py")


def hwmon(root, number, device, files):
    """/sys/class/hwmon/hwmonN -> ../../devices/<device>/hwmon/hwmonN, holding `files`."""
    target = os.path.join("devices", device, "hwmon", "hwmon%d" % number)
    for name, text in files.items():
        path = os.path.join(root, "sys", target, name)
        if text is None:
            # A file that cannot be read (EISDIR); the file inside keeps the folder in git.
            write(os.path.join(path, "kept"), "")
        else:
            write(path, text)
    link(os.path.join(root, "sys/class/hwmon", "hwmon%d" % number), os.path.join("../..", target))


def fans_desktop():
    root = fresh("fans-desktop", "A desktop's fans: a Super I/O chip without labels (one fan stopped), a Dell "
                                 "laptop's labelled fans with targets, an amdgpu card's fan, a chip without fans, "
                                 "and a chip whose fan cannot be read.")
    hwmon(root, 0, "platform/nct6775.656", {"name": "nct6798\n", "fan1_input": "1130\n", "fan2_input": "0\n",
                                            "fan7_input": "745\n", "temp1_input": "38000\n"})
    hwmon(root, 1, "platform/dell_smm_hwmon", {"name": "dell_smm\n", "fan1_input": "2400\n", "fan1_label": "Processor Fan\n",
                                               "fan1_target": "2500\n", "fan2_input": "0\n", "fan2_label": "Video Fan\n",
                                               "fan2_target": "0\n"})
    hwmon(root, 2, "pci0000:00/0000:00:01.0/0000:03:00.0", {"name": "amdgpu\n", "fan1_input": "1500\n",
                                                             "fan1_target": "1500\n", "temp1_input": "52000\n"})
    hwmon(root, 3, "platform/coretemp.0", {"name": "coretemp\n", "temp1_input": "45000\n", "temp1_label": "Package id 0\n"})
    hwmon(root, 4, "platform/broken.0", {"name": "broken\n", "fan1_input": None})


def fans_none():
    root = fresh("fans-none", "A machine whose hwmon chips have no fans (a laptop that hides them, a VM).")
    hwmon(root, 0, "platform/coretemp.0", {"name": "coretemp\n", "temp1_input": "45000\n", "temp1_label": "Package id 0\n"})


def rapl(root, name, domain_name, energy, wraps_at=262143328850):
    """/sys/class/powercap/NAME -> ../../devices/virtual/powercap/intel-rapl/NAME."""
    parent = "intel-rapl-mmio" if name.startswith("intel-rapl-mmio") else "intel-rapl"
    target = os.path.join("devices/virtual/powercap", parent, name)
    write(os.path.join(root, "sys", target, "name"), domain_name + "\n")
    if energy is None:
        write(os.path.join(root, "sys", target, "energy_uj", "kept"), "")
    else:
        write(os.path.join(root, "sys", target, "energy_uj"), "%d\n" % energy)
    write(os.path.join(root, "sys", target, "max_energy_range_uj"), "%d\n" % wraps_at)
    link(os.path.join(root, "sys/class/powercap", name), os.path.join("../..", target))


def power_laptop():
    """Over one second: package 10 W, core 5 W, uncore 0.5 W, psys 20 W; the MMIO package
    (the same package again) must not be counted."""
    root = fresh("power-laptop", "A laptop's RAPL domains in two steps one second apart: package-0 (core, "
                                 "uncore), psys, and the MMIO interface of the same package.")
    for step, base in ((1, 0), (2, 1)):
        tree = os.path.join(root, str(step))
        rapl(tree, "intel-rapl", "package-0", 0)   # the control type's own folder: not a domain
        rapl(tree, "intel-rapl:0", "package-0", 1000000 + base * 10000000)
        rapl(tree, "intel-rapl:0:0", "core", 500000 + base * 5000000)
        rapl(tree, "intel-rapl:0:1", "uncore", 100 + base * 500000)
        rapl(tree, "intel-rapl:1", "psys", 2000000 + base * 20000000)
        rapl(tree, "intel-rapl-mmio:0", "package-0", 7000000 + base * 10000000)


def power_wrap():
    root = fresh("power-wrap", "A RAPL package counter that wraps at max_energy_range_uj between two steps "
                               "one second apart: 10 J through the wrap.")
    rapl(os.path.join(root, "1"), "intel-rapl:0", "package-0", 262143000000)
    rapl(os.path.join(root, "2"), "intel-rapl:0", "package-0", 9671150)


def power_unreadable():
    root = fresh("power-unreadable", "A RAPL package whose energy_uj cannot be read (as a user since Linux 5.10; "
                                     "here a folder, so that root's test sees a failure too).")
    rapl(root, "intel-rapl:0", "package-0", None)


def backlight(root, name, device, files):
    """/sys/class/backlight/NAME -> ../../devices/<device>/NAME, holding `files` (None: a
    file that cannot be read); without `files`, a link to a device that is gone."""
    target = os.path.join("devices", device, name)
    for file, text in (files or {}).items():
        path = os.path.join(root, "sys", target, file)
        if text is None:
            write(os.path.join(path, "kept"), "")
        else:
            write(path, text)
    link(os.path.join(root, "sys/class/backlight", name), os.path.join("../..", target))


def backlight_laptop():
    """The figures Tests/ProcFSTests/BacklightDevicesTests.swift expects: 12 of 15 and
    76800 of 96000 (80 %), 7 of 15 (46.67 %), a monitor at 35 of 100."""
    root = fresh("backlight-laptop", "A laptop's backlights: ACPI's (firmware), thinkpad_acpi's (platform) and the "
                                     "Intel panel's (raw), a DDC/CI monitor whose actual_brightness cannot be read, "
                                     "and the link of a device that is gone.")
    gpu = "pci0000:00/0000:00:02.0"
    backlight(root, "intel_backlight", gpu + "/drm/card1/card1-eDP-1",
              {"type": "raw\n", "max_brightness": "96000\n", "actual_brightness": "76800\n", "brightness": "76800\n"})
    backlight(root, "acpi_video0", gpu + "/backlight",
              {"type": "firmware\n", "max_brightness": "15\n", "actual_brightness": "12\n", "brightness": "12\n"})
    backlight(root, "thinkpad_screen", "platform/thinkpad_acpi/backlight",
              {"type": "platform\n", "max_brightness": "15\n", "actual_brightness": "7\n", "brightness": "7\n"})
    backlight(root, "ddcci13", gpu + "/drm/card1/card1-DP-1/i2c-13/13-0037/ddcci13/backlight",
              {"type": "raw\n", "max_brightness": "100\n", "actual_brightness": None, "brightness": "35\n"})
    backlight(root, "gone_backlight", "platform/gone", None)


if __name__ == "__main__":
    fans_desktop()
    fans_none()
    power_laptop()
    power_wrap()
    power_unreadable()
    backlight_laptop()
