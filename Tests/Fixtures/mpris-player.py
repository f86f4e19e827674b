#!/usr/bin/python3
"""A test MPRIS player on the session bus (the media block's tests: MediaPlayerTests).

    mpris-player.py WORD IDENTITY [--log FILE]

owns org.mpris.MediaPlayer2.WORD and serves /org/mpris/MediaPlayer2 as a player would:
org.mpris.MediaPlayer2 (Identity), org.mpris.MediaPlayer2.Player (PlaybackStatus, Metadata;
PlayPause, Play, Pause, Next, Previous) and org.freedesktop.DBus.Properties, emitting
PropertiesChanged at each change. Its track and status are set by the tests through
org.sysstats.TestPlayer (SetTrack TITLE ARTIST ALBUM LENGTH_US, SetStatus STATUS, Quit); each
Player method called is appended to --log's file, one name a line.
"""
import sys

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
        self.metadata = dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/sysstats/track/0")}, signature="sv")

    def player_props(self):
        return dbus.Dictionary({"PlaybackStatus": self.status, "Metadata": self.metadata,
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
        self.status = "Paused" if self.status == "Playing" else "Playing"
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
        self.metadata = dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/sysstats/track/1"),
                                         "xesam:title": title, "xesam:artist": dbus.Array([artist], signature="s"),
                                         "xesam:album": album, "mpris:length": dbus.Int64(length)}, signature="sv")
        self.changed(["Metadata"])

    @dbus.service.method(TEST, in_signature="s")
    def SetStatus(self, status):
        self.status = status
        self.changed(["PlaybackStatus"])

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
