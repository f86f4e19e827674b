#!/usr/bin/env python3
"""Writes the fixture trees of the net, disk, temperature and frequency readers:
Tests/Fixtures/{net-dev,disks-modern,disks-old-kernel,hwmon-intel,hwmon-amd,
hwmon-zenpower,thermal-only,hwmon-empty,cpufreq-basic,cpufreq-vm}.

The layouts mirror real /proc and /sys: hwmonN and /sys/block entries are
relative symbolic links into the fixture's own sys/devices, as the kernel's are
links into /sys/devices. The numbers are chosen so that every expected figure in
Tests/ProcFSTests is exact. Run this again after changing them (it rewrites the trees).
"""
import os, shutil

from fixture_files import HERE, link, write
import fixture_files


def fresh(name, readme):
    return fixture_files.fresh(name, readme, "make-sensor-fixtures.py")


# --- /proc/net/dev ---------------------------------------------------------------------------

NET_HEADER = ("Inter-|   Receive                                                |  Transmit\n"
              " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n")


def net_line(name, rx, tx):
    # The kernel's "%6s:%8llu %7llu ..." (dev_seq_printf_stats).
    return "%6s:%8d %7d %4d %4d %4d %5d %10d %9d %8d %7d %4d %4d %4d %5d %7d %10d\n" % (
        name, rx, 10, 0, 0, 0, 0, 0, 0, tx, 20, 0, 0, 0, 0, 0, 0)


def net_dev():
    root = fresh("net-dev", "A laptop's /proc/net/dev: loopback, ethernet, wifi, a docker bridge and a veth, "
                            "and a 15-byte name (IFNAMSIZ − 1).")
    text = NET_HEADER
    text += net_line("lo", 3947, 3947)
    text += net_line("enp3s0", 123456789, 98765432)
    text += net_line("wlp2s0", 5000000000, 250000000)  # past 32 bits
    text += net_line("docker0", 0, 0)
    text += net_line("vethabcdef01234", 1500, 2500)
    # A counter as wide as the field allows: no blank after the colon.
    text += "br-0123456789ab:18446744073709551615      1    0    0    0     0          0         0        7       1    0    0    0     0       0          0\n"
    write(os.path.join(root, "proc/net/dev"), text)


# --- /proc/diskstats -------------------------------------------------------------------------

def disk_line(major, minor, name, sectors_read, sectors_written, fields):
    # reads merged sectors ms | writes merged sectors ms | in-flight io_ms weighted | discard x4 | flush x2
    values = [100, 5, sectors_read, 40, 200, 7, sectors_written, 90, 0, 120, 130, 1, 0, 8, 0, 3, 4][:fields - 3]
    return "%4d %7d %s %s\n" % (major, minor, name, " ".join(str(v) for v in values))


def block_device(root, name, device_path, dev):
    # /sys/block/<name> -> ../devices/.../block/<name>, as on a real system.
    target = os.path.join(device_path, "block", name)
    write(os.path.join(root, "sys", target, "dev"), dev + "\n")
    link(os.path.join(root, "sys/block", name), os.path.join("..", target))


def disks(name, fields, readme):
    root = fresh(name, readme)
    lines = [
        (7, 0, "loop0", 2000, 0),
        (7, 1, "loop1", 0, 0),
        (8, 0, "sda", 1000, 2000),           # 512000 and 1024000 bytes
        (8, 1, "sda1", 900, 1900),           # a partition: not in /sys/block
        (8, 2, "sda2", 100, 100),
        (259, 0, "nvme0n1", 4194304, 8388608),  # 2 GiB and 4 GiB
        (259, 1, "nvme0n1p1", 4194304, 8388608),
        (11, 0, "sr0", 64, 0),
        (252, 0, "zram0", 10, 10),
        (254, 0, "dm-0", 300, 600),
        (8, 16, "sdb", 36028797018963968, 1),  # 2^55 sectors: × 512 saturates
    ]
    write(os.path.join(root, "proc/diskstats"),
          "".join(disk_line(ma, mi, n, r, w, fields) for ma, mi, n, r, w in lines))
    block_device(root, "loop0", "devices/virtual", "7:0")
    block_device(root, "loop1", "devices/virtual", "7:1")
    block_device(root, "sda", "devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0", "8:0")
    block_device(root, "sdb", "devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0", "8:16")
    block_device(root, "nvme0n1", "devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0", "259:0")
    block_device(root, "sr0", "devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0", "11:0")
    block_device(root, "zram0", "devices/virtual", "252:0")
    block_device(root, "dm-0", "devices/virtual", "254:0")


# --- hwmon and thermal zones -----------------------------------------------------------------

def hwmon(root, number, device_path, name, temps):
    """temps: {N: {"input": .., "label": .., "crit": .., "max": ..}} (values as text)."""
    target = os.path.join("devices", device_path, "hwmon", "hwmon%d" % number)
    d = os.path.join(root, "sys", target)
    write(os.path.join(d, "name"), name + "\n")
    write(os.path.join(d, "uevent"), "")
    for n, attributes in temps.items():
        for key, value in attributes.items():
            write(os.path.join(d, "temp%d_%s" % (n, key)), value + "\n")
    link(os.path.join(root, "sys/class/hwmon", "hwmon%d" % number), os.path.join("../..", target))


def zone(root, number, kind, temp):
    target = os.path.join("devices/virtual/thermal", "thermal_zone%d" % number)
    d = os.path.join(root, "sys", target)
    write(os.path.join(d, "type"), kind + "\n")
    write(os.path.join(d, "temp"), temp + "\n")
    write(os.path.join(d, "mode"), "enabled\n")
    link(os.path.join(root, "sys/class/thermal", "thermal_zone%d" % number), os.path.join("../..", target))


def hwmon_intel():
    root = fresh("hwmon-intel", "An Intel laptop: acpitz (hwmon0), coretemp with a package and two cores "
                                "(hwmon1), an NVMe drive (hwmon2), wifi without labels (hwmon3), "
                                "and the thermal zones acpitz and x86_pkg_temp.")
    hwmon(root, 0, "virtual/thermal/thermal_zone0", "acpitz", {1: {"input": "27800", "crit": "119000"}})
    hwmon(root, 1, "platform/coretemp.0", "coretemp", {
        1: {"input": "52000", "label": "Package id 0", "crit": "100000", "max": "80000"},
        2: {"input": "49000", "label": "Core 0", "crit": "100000", "max": "80000"},
        3: {"input": "51000", "label": "Core 1", "crit": "100000", "max": "80000"},
    })
    hwmon(root, 2, "pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0", "nvme", {
        1: {"input": "38850", "label": "Composite", "crit": "84850", "max": "81850"},
        2: {"input": "38850", "label": "Sensor 1", "max": "65261850"},
    })
    hwmon(root, 3, "pci0000:00/0000:00:14.3", "iwlwifi_1", {1: {"input": "41000"}})
    zone(root, 0, "acpitz", "27800")
    zone(root, 1, "x86_pkg_temp", "52000")


def hwmon_amd():
    root = fresh("hwmon-amd", "An AMD desktop on Linux 5.x: k10temp with Tdie, Tctl (offset +20 °C) and "
                              "Tccd1 (hwmon0), amdgpu (hwmon1), a Super I/O chip with a negative and a "
                              "huge reading (hwmon2). No thermal zones.")
    hwmon(root, 0, "pci0000:00/0000:00:18.3", "k10temp", {
        1: {"input": "45500", "label": "Tdie", "max": "70000"},
        2: {"input": "65500", "label": "Tctl"},
        3: {"input": "43250", "label": "Tccd1"},
    })
    hwmon(root, 1, "pci0000:00/0000:00:03.1/0000:09:00.0", "amdgpu", {
        1: {"input": "40000", "label": "edge", "crit": "100000"},
        2: {"input": "42000", "label": "junction", "crit": "110000"},
        3: {"input": "44000", "label": "mem", "crit": "105000"},
    })
    hwmon(root, 2, "platform/nct6775.656", "nct6798", {
        1: {"input": "27000", "label": "SYSTIN"},
        2: {"input": "-12500", "label": "CPUTIN"},
        3: {"input": "99999999999", "label": "AUXTIN0"},
    })


def hwmon_zenpower():
    root = fresh("hwmon-zenpower", "An AMD Zen machine with the out-of-tree zenpower driver instead of "
                                   "k10temp: Tdie, Tctl, Tccd1 (hwmon0), and an NVMe drive (hwmon1).")
    hwmon(root, 0, "pci0000:00/0000:00:18.3", "zenpower", {
        1: {"input": "47125", "label": "Tdie"},
        2: {"input": "47125", "label": "Tctl"},
        3: {"input": "44000", "label": "Tccd1"},
    })
    hwmon(root, 1, "pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0", "nvme", {
        1: {"input": "35850", "label": "Composite"},
    })


def thermal_only():
    root = fresh("thermal-only", "No hwmon class (a kernel without the drivers): three thermal zones, "
                                 "acpitz, x86_pkg_temp and iwlwifi_1.")
    zone(root, 0, "acpitz", "25000")
    zone(root, 1, "x86_pkg_temp", "61000")
    zone(root, 2, "iwlwifi_1", "39000")


def hwmon_empty():
    root = fresh("hwmon-empty", "An hwmon class with one chip that has no temperature (a battery's voltage); "
                                "no thermal class.")
    d = os.path.join(root, "sys/devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0/hwmon0")
    write(os.path.join(d, "name"), "BAT0\n")
    write(os.path.join(d, "in0_input"), "12000\n")
    link(os.path.join(root, "sys/class/hwmon/hwmon0"),
         "../../devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0/hwmon0")


# --- CPU frequency ---------------------------------------------------------------------------

def cpu_directory(root, n, khz):
    d = os.path.join(root, "sys/devices/system/cpu", "cpu%d" % n)
    write(os.path.join(d, "online"), "1\n" if khz is not None else "0\n")
    if khz is not None:
        write(os.path.join(d, "cpufreq/scaling_cur_freq"), "%d\n" % khz)
        write(os.path.join(d, "cpufreq/scaling_max_freq"), "4200000\n")


def cpufreq_basic():
    root = fresh("cpufreq-basic", "Four CPUs, cpu3 offline (no cpufreq directory): 800, 3400 and 1800 MHz, "
                                  "mean 2000, maximum 3400.")
    for n, khz in enumerate([800000, 3400000, 1800000, None]):
        cpu_directory(root, n, khz)
    cpu = os.path.join(root, "sys/devices/system/cpu")
    write(os.path.join(cpu, "online"), "0-2\n")
    write(os.path.join(cpu, "cpufreq/boost"), "1\n")
    write(os.path.join(cpu, "cpuidle/current_driver"), "intel_idle\n")
    write(os.path.join(root, "proc/cpuinfo"), "processor\t: 0\ncpu MHz\t\t: 1.000\n")


def cpufreq_vm():
    root = fresh("cpufreq-vm", "A virtual machine: two CPUs without cpufreq; /proc/cpuinfo says 2400.000 "
                               "and 2800.500 MHz (mean 2600.250 → 2600, maximum 2800.5 → 2801).")
    for n in range(2):
        write(os.path.join(root, "sys/devices/system/cpu", "cpu%d" % n, "topology/core_id"), "%d\n" % n)
    write(os.path.join(root, "sys/devices/system/cpu/online"), "0-1\n")
    info = ""
    for n, mhz in enumerate(["2400.000", "2800.500"]):
        info += ("processor\t: %d\nvendor_id\t: GenuineIntel\nmodel name\t: Intel Xeon Processor (Icelake)\n"
                 "cpu MHz\t\t: %s\ncache size\t: 16384 KB\nflags\t\t: fpu vme de pse\n\n") % (n, mhz)
    write(os.path.join(root, "proc/cpuinfo"), info)


if __name__ == "__main__":
    net_dev()
    disks("disks-modern", 20, "A Linux 6.x /proc/diskstats (20 fields) with its /sys/block: two SATA disks, "
                              "an NVMe drive, a dm volume, loop, zram and optical devices, partitions.")
    disks("disks-old-kernel", 14, "The same devices as disks-modern in the 14-field /proc/diskstats of "
                                  "Linux before 4.18.")
    hwmon_intel()
    hwmon_amd()
    hwmon_zenpower()
    thermal_only()
    hwmon_empty()
    cpufreq_basic()
    cpufreq_vm()
