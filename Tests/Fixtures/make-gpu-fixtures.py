#!/usr/bin/env python3
"""Writes the fixture trees of the GPU readers: Tests/Fixtures/{gpu-amdgpu,gpu-i915,gpu-xe,
gpu-nvidia,gpu-none,gpu-clients}.

The layouts are the ones the kernel writes: /sys/class/drm/cardN and its connectors
(card1-DP-1) and render nodes are relative symbolic links into sys/devices, each card's
`device` a link to its PCI device, whose `uevent` names the driver and the PCI id. The files
and their units follow the kernel's documentation:
- amdgpu: Documentation/gpu/amdgpu/driver-misc.rst (gpu_busy_percent, mem_busy_percent,
  mem_info_vram_used/_total, mem_info_gtt_used/_total, product_name) and thermal.rst
  (hwmon: temp1_input millidegrees, power1_average and power1_cap microwatts, fan1_input RPM,
  freq1_input Hz);
- i915: gt_act_freq_mhz, gt/gt0/rc6_residency_ms (drivers/gpu/drm/i915/gt/intel_gt_sysfs_pm.c);
- xe: device/tile0/gt0/freq0/act_freq, device/tile0/gt0/gtidle/idle_residency_ms
  (drivers/gpu/drm/xe/xe_gt_freq.c, xe_gt_idle.c), hwmon energy1_input microjoules and
  power1_max microwatts (Documentation/ABI/testing/sysfs-driver-intel-xe-hwmon);
- NVIDIA: /proc/driver/nvidia/gpus/<PCI address> (the driver's procfs), the figures from
  NVML (the tests' stub library, Tests/Fixtures/nvml-stub).
Run this again after changing them (it rewrites the trees).
"""
import os, shutil

from fixture_files import HERE, link, write
import fixture_files


def fresh(name, readme):
    return fixture_files.fresh(name, readme, "make-gpu-fixtures.py")


def card(root, n, pci_path, driver, pci_id, files, connectors=()):
    """cardN under the PCI device at sys/devices/<pci_path>, with `files` relative to the card
    (`device/...` ones in the PCI device's folder)."""
    device = os.path.join(root, "sys/devices", pci_path)
    write(os.path.join(device, "uevent"),
          "DRIVER=%s\nPCI_CLASS=30000\nPCI_ID=%s\nPCI_SUBSYS_ID=%s\nPCI_SLOT_NAME=%s\n" %
          (driver, pci_id, pci_id, os.path.basename(pci_path)))
    card_dir = os.path.join(device, "drm/card%d" % n)
    link(os.path.join(card_dir, "device"), "../../../" + os.path.basename(pci_path))
    write(os.path.join(card_dir, "uevent"), "MAJOR=226\nMINOR=%d\nDEVNAME=dri/card%d\nDEVTYPE=drm_minor\n" % (n, n))
    depth = "../../devices/" + pci_path + "/drm/"
    link(os.path.join(root, "sys/class/drm/card%d" % n), depth + "card%d" % n)
    for c in connectors:
        write(os.path.join(device, "drm/card%d/card%d-%s/status" % (n, n, c)), "connected\n")
        link(os.path.join(root, "sys/class/drm/card%d-%s" % (n, c)), depth + "card%d/card%d-%s" % (n, n, c))
    write(os.path.join(device, "drm/renderD%d/uevent" % (128 + n)), "MAJOR=226\n")
    link(os.path.join(root, "sys/class/drm/renderD%d" % (128 + n)), depth + "renderD%d" % (128 + n))
    write(os.path.join(root, "sys/class/drm/version"), "drm 1.1.0 20060810\n")
    for name, text in files.items():
        if name.startswith("device/"):
            write(os.path.join(device, name[len("device/"):]), text)
        else:
            write(os.path.join(card_dir, name), text)


def amdgpu():
    root = fresh("gpu-amdgpu", "A desktop with a Radeon RX 6800 (amdgpu, card1) and an integrated one "
                               "the kernel has put to sleep (card0: runtime_status suspended).")
    card(root, 0, "pci0000:00/0000:00:08.1/0000:0c:00.0", "amdgpu", "1002:164E", {
        "device/power/runtime_status": "suspended\n",
        "device/gpu_busy_percent": "99\n",  # never read: reading it would wake the card
    })
    card(root, 1, "pci0000:00/0000:00:03.1/0000:09:00.0", "amdgpu", "1002:73BF", {
        "device/power/runtime_status": "active\n",
        "device/product_name": "AMD Radeon RX 6800\n",
        "device/gpu_busy_percent": "37\n",
        "device/mem_busy_percent": "12\n",
        "device/mem_info_vram_used": "6442450944\n",
        "device/mem_info_vram_total": "17163091968\n",
        "device/mem_info_gtt_used": "104857600\n",
        "device/mem_info_gtt_total": "8589934592\n",
        "device/hwmon/hwmon1/name": "amdgpu\n",
        "device/hwmon/hwmon1/temp1_input": "61000\n",
        "device/hwmon/hwmon1/temp1_label": "edge\n",
        "device/hwmon/hwmon1/temp2_input": "65000\n",
        "device/hwmon/hwmon1/temp2_label": "junction\n",
        "device/hwmon/hwmon1/power1_average": "215400000\n",
        "device/hwmon/hwmon1/power1_cap": "203000000\n",
        "device/hwmon/hwmon1/fan1_input": "1450\n",
        "device/hwmon/hwmon1/freq1_input": "2105000000\n",
        "device/hwmon/hwmon1/freq1_label": "sclk\n",
    }, connectors=("DP-1", "HDMI-A-1"))


def i915():
    root = fresh("gpu-i915", "A laptop's integrated Intel GPU (i915, card0): the actual clock and the "
                             "RC6 residency counter; no hwmon. The tests rewrite rc6_residency_ms between readings.")
    card(root, 0, "pci0000:00/0000:00:02.0", "i915", "8086:9A49", {
        "gt_act_freq_mhz": "1300\n",
        "gt_cur_freq_mhz": "1350\n",
        "gt/gt0/rc6_residency_ms": "100000\n",
    }, connectors=("eDP-1",))


def xe():
    root = fresh("gpu-xe", "An Intel Arc B580 (xe, card0): clock, idle residency and the energy counter. "
                           "The tests rewrite idle_residency_ms and energy1_input between readings.")
    card(root, 0, "pci0000:00/0000:00:01.0/0000:03:00.0", "xe", "8086:E20B", {
        "device/tile0/gt0/freq0/act_freq": "2400\n",
        "device/tile0/gt0/freq0/cur_freq": "2450\n",
        "device/tile0/gt0/gtidle/idle_residency_ms": "5000\n",
        "device/hwmon/hwmon4/name": "xe\n",
        "device/hwmon/hwmon4/energy1_input": "1000000\n",
        "device/hwmon/hwmon4/power1_max": "190000000\n",
    })


def nvidia():
    root = fresh("gpu-nvidia", "A machine with an NVIDIA card: the driver's /proc/driver/nvidia/gpus entry "
                               "(the figures come from NVML: the tests' stub library); its nvidia-drm card0 "
                               "is left to NVML.")
    write(os.path.join(root, "proc/driver/nvidia/gpus/0000:01:00.0/information"),
          "Model: \t\t NVIDIA GeForce RTX 4090\nBus Location: \t 0000:01:00.0\n")
    card(root, 0, "pci0000:00/0000:00:01.0/0000:01:00.0", "nvidia", "10DE:2684", {})


def none():
    root = fresh("gpu-none", "A virtual machine: a virtio-gpu card, which gives no figures, and no NVIDIA driver.")
    card(root, 0, "pci0000:00/0000:00:01.0", "virtio-pci", "1AF4:1050", {})
    write(os.path.join(root, "proc/driver/.keep"), "")  # a /proc without the NVIDIA driver


def clients():
    """The desktop fixture's processes (sampler-desktop/2/proc) with DRM descriptors in the
    fdinfo keys of Documentation/gpu/drm-usage-stats.rst: 200 (Isolated Web Co) holds one
    amdgpu client through two descriptors and a second client, with amdgpu's older
    drm-memory-* keys; 300 (gnome-shell-cal) an i915 client with drm-resident-* keys and an
    engine of capacity 2; 400 an ordinary file, and a descriptor on /dev/null."""
    root = fresh("gpu-clients", "The desktop fixture's processes with DRM clients in their fdinfo "
                                "(amdgpu, i915), for sysstats top --gpu.")
    shutil.copytree(os.path.join(HERE, "sampler-desktop/2/proc"), os.path.join(root, "proc"), symlinks=True)
    amd = ("pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1051\ndrm-driver:\tamdgpu\ndrm-client-id:\t%d\n"
           "drm-pdev:\t0000:09:00.0\npasid:\t32771\ndrm-memory-vram:\t%d KiB\ndrm-memory-gtt:\t2048 KiB\n"
           "drm-memory-cpu:\t0 KiB\ndrm-engine-gfx:\t%d ns\ndrm-engine-compute:\t0 ns\ndrm-engine-dec:\t0 ns\n")
    for fd, client, vram, gfx in ((5, 13, 524288, 4000000000), (6, 13, 524288, 4000000000), (9, 14, 1024, 1000)):
        link(os.path.join(root, "proc/200/fd/%d" % fd), "/dev/dri/renderD129")
        write(os.path.join(root, "proc/200/fdinfo/%d" % fd), amd % (client, vram, gfx))
    link(os.path.join(root, "proc/200/fd/0"), "/dev/null")
    write(os.path.join(root, "proc/200/fdinfo/0"), "pos:\t0\nflags:\t0100002\nmnt_id:\t25\nino:\t5\n")
    link(os.path.join(root, "proc/300/fd/7"), "/dev/dri/card0")
    write(os.path.join(root, "proc/300/fdinfo/7"),
          "pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t685\ndrm-driver:\ti915\ndrm-client-id:\t7\n"
          "drm-pdev:\t0000:00:02.0\ndrm-total-system0:\t96 MiB\ndrm-shared-system0:\t0\n"
          "drm-active-system0:\t0\ndrm-resident-system0:\t80 MiB\ndrm-purgeable-system0:\t0\n"
          "drm-engine-render:\t9288864723 ns\ndrm-engine-copy:\t2035071108 ns\ndrm-engine-video:\t0 ns\n"
          "drm-engine-capacity-video:\t2\ndrm-engine-video-enhance:\t0 ns\n")
    link(os.path.join(root, "proc/400/fd/3"), "/home/user/notes.txt")
    write(os.path.join(root, "proc/400/fdinfo/3"), "pos:\t0\nflags:\t0100000\nmnt_id:\t30\nino:\t7\n")


amdgpu(); i915(); xe(); nvidia(); none(); clients()
