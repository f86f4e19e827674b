#!/usr/bin/python3
"""A stand-in for logind's session object on a test bus (the backlight block's tests).

    fake-logind.py LOG

owns org.freedesktop.login1 on the bus DBUS_SESSION_BUS_ADDRESS names (the tests point the
bar's DBUS_SYSTEM_BUS_ADDRESS at the same bus) and serves
/org/freedesktop/login1/session/auto's org.freedesktop.login1.Session.SetBrightness(ssu), as
logind does for a user's own session; each call is appended to LOG as `SUBSYSTEM NAME VALUE`.
A name with a slash is refused as logind refuses it.
"""
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

SESSION = "org.freedesktop.login1.Session"


class Session(dbus.service.Object):
    def __init__(self, bus, log):
        super().__init__(bus, "/org/freedesktop/login1/session/auto")
        self.log = log

    @dbus.service.method(SESSION, in_signature="ssu")
    def SetBrightness(self, subsystem, name, value):
        if "/" in name or subsystem not in ("backlight", "leds"):
            raise dbus.exceptions.DBusException("Invalid device", name="org.freedesktop.DBus.Error.InvalidArgs")
        with open(self.log, "a") as f:
            f.write(f"{subsystem} {name} {int(value)}\n")


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.login1", bus)
session = Session(bus, sys.argv[1])
print("ready", flush=True)
GLib.MainLoop().run()
