#!/usr/bin/python3
"""A test MPRIS player on the session bus (the media block's tests: MediaPlayerTests).

    mpris-player.py WORD IDENTITY [--log FILE]

owns org.mpris.MediaPlayer2.WORD and serves /org/mpris/MediaPlayer2 as a player would:
org.mpris.MediaPlayer2 (Identity), org.mpris.MediaPlayer2.Player (PlaybackStatus, Metadata,
Position, Rate; PlayPause, Play, Pause, Next, Previous; the Seeked signal) and
org.freedesktop.DBus.Properties, emitting PropertiesChanged at each change but none for the
position as it plays (as players do). Its track, status and position are set by the tests
through org.sysstats.TestPlayer (SetTrack TITLE ARTIST ALBUM LENGTH_US, SetStatus STATUS,
JumpTo POSITION_US, which signals Seeked, Quit); each Player method called is appended to
--log's file, one name a line.
"""
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
PROPS = "org.freedesktop.DBus.Properties"
TEST = "org.sysstats.TestPlayer"


class Player(dbus.service.Object):
    def __init__(self, bus, identity, log):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.identity = identity
        self.log = log
        self.status = "Stopped"
        # Where the track was at `since` (time.monotonic()), microseconds; it moves while playing.
        self.position_us = 0
        self.since = time.monotonic()
        self.metadata = dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/sysstats/track/0")}, signature="sv")

    def position(self):
        moved = (time.monotonic() - self.since) * 1e6 if self.status == "Playing" else 0
        return int(self.position_us + moved)

    def set_status(self, status):
        self.position_us = self.position()
        self.since = time.monotonic()
        self.status = status

    def player_props(self):
        return dbus.Dictionary({"PlaybackStatus": self.status, "Metadata": self.metadata,
                                "Position": dbus.Int64(self.position()), "Rate": dbus.Double(1.0),
                                "CanPlay": True, "CanPause": True, "CanGoNext": True, "CanGoPrevious": True},
                               signature="sv")

    def changed(self, names):
        props = self.player_props()
        self.PropertiesChanged(PLAYER, dbus.Dictionary({n: props[n] for n in names}, signature="sv"), [])

    def called(self, name):
        if self.log:
            with open(self.log, "a") as f:
                f.write(name + "\n")

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface == ROOT:
            return dbus.Dictionary({"Identity": self.identity, "CanQuit": False, "CanRaise": False}, signature="sv")
        if interface == PLAYER:
            return self.player_props()
        return dbus.Dictionary({}, signature="sv")

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        self.called("PlayPause")
        self.set_status("Paused" if self.status == "Playing" else "Playing")
        self.changed(["PlaybackStatus"])

    @dbus.service.method(PLAYER)
    def Play(self):
        self.called("Play")

    @dbus.service.method(PLAYER)
    def Pause(self):
        self.called("Pause")

    @dbus.service.method(PLAYER)
    def Next(self):
        self.called("Next")

    @dbus.service.method(PLAYER)
    def Previous(self):
        self.called("Previous")

    @dbus.service.method(TEST, in_signature="sssx")
    def SetTrack(self, title, artist, album, length):
        self.position_us = 0
        self.since = time.monotonic()
        self.metadata = dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/sysstats/track/1"),
                                         "xesam:title": title, "xesam:artist": dbus.Array([artist], signature="s"),
                                         "xesam:album": album, "mpris:length": dbus.Int64(length)}, signature="sv")
        self.changed(["Metadata"])

    @dbus.service.signal(PLAYER, signature="x")
    def Seeked(self, position):
        pass

    @dbus.service.method(TEST, in_signature="s")
    def SetStatus(self, status):
        self.set_status(status)
        self.changed(["PlaybackStatus"])

    @dbus.service.method(TEST, in_signature="x")
    def JumpTo(self, position):
        self.position_us = position
        self.since = time.monotonic()
        self.Seeked(dbus.Int64(position))

    @dbus.service.method(TEST)
    def Quit(self):
        GLib.idle_add(loop.quit)


args = sys.argv[1:]
log = None
if "--log" in args:
    i = args.index("--log")
    log = args[i + 1]
    del args[i:i + 2]
word, identity = args
DBusGMainLoop(set_as_default=True)
session = dbus.SessionBus()
name = dbus.service.BusName(ROOT + "." + word, session)
player = Player(session, identity, log)
loop = GLib.MainLoop()
print("ready", flush=True)
loop.run()
