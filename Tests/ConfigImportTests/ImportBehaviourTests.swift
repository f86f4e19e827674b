import XCTest
@testable import ConfigImport

/// What each import makes of a module: the block, its keys, and what it says it left behind.
final class ImportBehaviourTests: XCTestCase {
    func blocks(_ text: String, _ source: ImportSource, bar: String? = nil,
                include: (String) -> String? = { _ in nil }) throws -> [ImportedBlock] {
        try ConfigImporter.convert(text, from: source, bar: bar, include: include).blocks
    }

    func keys(_ b: ImportedBlock?) -> [String: ImportValue] {
        Dictionary(uniqueKeysWithValues: (b?.keys ?? []).map { ($0.key, $0.value) })
    }

    // MARK: i3status

    func testI3statusBatteryStatusWordsBecomeOneFormatPerState() throws {
        let b = try blocks("""
            order += "battery all"
            battery all { format = "%status %percentage" status_chr = "⚡" status_full = "☻" threshold_type = percentage low_threshold = 15 }
            """, .i3status).first
        XCTAssertEqual(keys(b)["format"], .string("BAT {percent}%"))
        XCTAssertEqual(keys(b)["format_charging"], .string("⚡ {percent}%"))
        XCTAssertEqual(keys(b)["format_full"], .string("☻ {percent}%"))
        XCTAssertEqual(keys(b)["critical"], .integer(15))
    }

    func testI3statusDefaultsApplyWhereTheFileSetsNoneAndThresholdsKeepTheirSense() throws {
        let all = try blocks("""
            order += "wireless _first_"
            order += "ethernet eth0"
            order += "memory"
            order += "disk /home"
            order += "cpu_usage"
            memory { threshold_degraded = "10%" threshold_critical = "5%" }
            disk "/home" { low_threshold = 10 threshold_type = percentage_avail }
            """, .i3status)
        XCTAssertEqual(all.map(\.block), ["wifi", "net", "mem", "disk", "cpu"])
        XCTAssertEqual(keys(all[0])["format"], .string("W: ({quality}% at {ssid}, {bitrate} Mb/s) {ip}"))
        XCTAssertEqual(keys(all[0])["format_down"], .string("W: down"))
        XCTAssertEqual(keys(all[1])["interface"], .string("eth0"))
        XCTAssertEqual(keys(all[1])["format"], .string("E: {ip} ({speed})"), "i3status's default, its %speed the link's")
        XCTAssertEqual(keys(all[2])["warning"], .integer(90), "10 % available is 90 % used")
        XCTAssertEqual(keys(all[2])["critical"], .integer(95))
        XCTAssertEqual(keys(all[3])["mount"], .string("/home"))
        XCTAssertEqual(keys(all[3])["critical"], .integer(90))
        XCTAssertEqual(keys(all[4])["format"], .string("{busy}%"))
    }

    func testI3statusGeneralBecomesThemeAndSamplerAndTheRestIsNamed() throws {
        let config = try ConfigImporter.convert("""
            general { interval = 5 color_bad = "#FF0000" color_good = "#00FF00" color_degraded = "#FFF" color_separator = "#333333" markup = pango }
            order += "ddate"
            order += "tztime a"
            order += "tztime b"
            tztime a { format = "%time" format_time = "%H:%M" timezone = "Asia/Tokyo" }
            tztime b { format = "100% %H" }
            """, from: .i3status)
        XCTAssertEqual(config.sampler, [ImportedKey("interval", .integer(5))])
        XCTAssertEqual(config.theme, [ImportedKey("critical", .string("#FF0000")), ImportedKey("warning", .string("#FFFFFF"))])
        XCTAssertEqual(config.droppedSettings.map(\.module), ["color_separator", "markup"])
        XCTAssertEqual(config.notes.map(\.module), ["ddate"])
        XCTAssertEqual(config.blocks.map { keys($0)["format"] }, [.string("%H:%M"), .string("100% %H")])
        XCTAssertEqual(keys(config.blocks.first)["timezone"], .string("Asia/Tokyo"))
        XCTAssertTrue(config.lostSomething)
    }

    // MARK: waybar

    func testWaybarModulesComeInBarOrderWithGroupsCustomScriptsAndClicks() throws {
        let config = try ConfigImporter.convert("""
            [{ "name": "other", "modules-left": ["cpu"] },
             { "name": "main",
               "modules-left": ["sway/workspaces", "group/hw"],
               "modules-center": ["clock"],
               "modules-right": ["custom/weather", "custom/undefined", "battery"],
               "group/hw": { "modules": ["memory", "cpu"] },
               "memory": { "format": "{used:0.1f}G/{total:0.1f}G", "states": { "warning": 70, "critical": 90 } },
               "clock": { "format": "{:%H:%M} 100%", "format-alt": "{:%Y-%m-%d}", "timezone": "Europe/Paris" },
               "custom/weather": { "exec": "weather.sh", "return-type": "json", "interval": 600, "on-click": "xdg-open 'https://x'" },
               "custom/undefined-but-unused": { "exec": "tail -f log" },
               "battery": { "format": "{capacity}% {icon}", "format-charging": "{capacity}% ⚡", "states": { "warning": 30 } },
             }]
            """, from: .waybar, bar: "main")
        XCTAssertEqual(config.items.map(\.module), ["sway/workspaces", "memory", "cpu", "clock", "custom/weather", "custom/undefined", "battery"])
        XCTAssertEqual(config.notes.map(\.outcome), [.barOwn, .noBlock])
        let b = config.blocks
        XCTAssertEqual(keys(b[0])["format"], .string("{used}/{total}"), "sysstats' sizes carry their unit")
        XCTAssertEqual(keys(b[0])["critical"], .integer(90))
        XCTAssertEqual(keys(b[2])["format"], .string("%H:%M 100%%"))
        XCTAssertEqual(keys(b[2])["format_short"], .string("%Y-%m-%d"))
        XCTAssertEqual(b[2].clicks, [ImportedClick(button: "left", action: "toggle_format")])
        XCTAssertEqual(keys(b[3])["format"], .string("json"))
        XCTAssertEqual(keys(b[3])["interval"], .integer(600))
        XCTAssertEqual(keys(b[3])["command"], .string("case \"$BLOCK_BUTTON\" in\n1) setsid -f sh -c 'xdg-open '\\''https://x'\\''' >/dev/null 2>&1 ;;\nesac\nweather.sh"),
                       "a click starts the module's own command")
        XCTAssertEqual(b[3].clicks, [])
        XCTAssertEqual(keys(b[4])["format_charging"], .string("{percent}% ⚡"))
        XCTAssertEqual(keys(b[4])["warning"], .integer(30))
    }

    func testAWaybarScriptWithoutAnIntervalKeepsRunningAndItsClicksAreNamed() throws {
        let b = try blocks("{ \"modules-left\": [\"custom/log\"], \"custom/log\": { \"exec\": \"tail -f log\", \"on-click\": \"x\" } }", .waybar)
        XCTAssertEqual(keys(b.first)["persist"], .bool(true))
        XCTAssertEqual(b.first?.clicks, [])
        XCTAssertEqual(b.first?.dropped, ["clicks (left): a persistent command reads its clicks on stdin"])
    }

    func testWaybarIncludedModulesAreReadAndTheBarsOwnDefinitionsWin() throws {
        let included = "{ \"cpu\": { \"format\": \"inc {usage}%\" }, \"memory\": { \"format\": \"inc {percentage}%\" } }"
        let b = try blocks("""
            { "include": ["~/.config/waybar/modules.json"], "modules-left": ["cpu", "memory"],
              "memory": { "format": "own {percentage}%" } }
            """, .waybar, include: { $0 == "~/.config/waybar/modules.json" ? included : nil })
        XCTAssertEqual(b.map { keys($0)["format"] }, [.string("inc {busy}%"), .string("own {percent}%")])
        let missing = try ConfigImporter.convert("{ \"include\": \"gone.json\", \"modules-left\": [\"cpu\"] }", from: .waybar)
        XCTAssertEqual(missing.droppedSettings.map(\.module), ["include gone.json"])
    }

    func testWaybarPulseaudioSourceBecomesAMicrophoneBlockBesideIt() throws {
        let b = try blocks("""
            { "modules-right": ["pulseaudio"],
              "pulseaudio": { "format": "{volume}% {icon} {format_source}", "format-source": "mic {volume}%", "scroll-step": 2,
                              "on-click-right": "pavucontrol" } }
            """, .waybar)
        XCTAssertEqual(b.map(\.block), ["volume", "microphone"])
        XCTAssertEqual(keys(b[0])["format"], .string("{volume}%"))
        XCTAssertEqual(keys(b[0])["step"], .integer(2))
        XCTAssertEqual(b[0].clicks, [ImportedClick(button: "right", cmd: "pavucontrol")])
        XCTAssertEqual(keys(b[1])["format"], .string("mic {volume}%"))
    }

    // MARK: polybar

    func testPolybarTakesTheNamedBarItsMountsDateAndScripts() throws {
        let ini = """
            [bar/a]
            modules-right = date
            [bar/b]
            modules-left = fs
            modules-right = date script mem ws
            [module/fs]
            type = internal/fs
            mount-0 = /
            mount-1 = /home
            label-mounted = %mountpoint% %percentage_free%%
            [module/date]
            type = internal/date
            date = %a %d
            time = %H:%M
            time-alt = %H:%M:%S
            label = %{A3:gsimplecal:}%date% %time%%{A}
            [module/script]
            type = custom/script
            exec = ~/bin/spotify
            tail = true
            format-prefix = "♫ "
            [module/mem]
            type = internal/memory
            format = <label> <bar-used>
            warn-percentage = 80
            [module/ws]
            type = internal/xworkspaces
            """
        let config = try ConfigImporter.convert(ini, from: .polybar, bar: "b", include: { _ in nil })
        XCTAssertEqual(config.items.map(\.module), ["fs", "fs", "date", "script", "mem", "ws"])
        let b = config.blocks
        XCTAssertEqual(b.map { keys($0)["mount"] }, [.string("/"), .string("/home"), nil, nil, nil])
        XCTAssertEqual(keys(b[0])["format"], .string("{mount} {free_percent}%"))
        XCTAssertEqual(keys(b[2])["format"], .string("%a %d %H:%M"))
        XCTAssertEqual(keys(b[2])["format_short"], .string("%a %d %H:%M:%S"))
        XCTAssertEqual(b[2].clicks, [ImportedClick(button: "right", cmd: "gsimplecal"), ImportedClick(button: "left", action: "toggle_format")])
        XCTAssertEqual(keys(b[3])["persist"], .bool(true))
        XCTAssertEqual(keys(b[3])["label"], .string("♫ "))
        XCTAssertEqual(keys(b[4])["format"], .string("{percent}% {bar}"))
        XCTAssertEqual(keys(b[4])["warning"], .integer(80))
        XCTAssertThrowsError(try ConfigImporter.convert(ini, from: .polybar, bar: "c")) { error in
            XCTAssertEqual((error as? ImportError)?.reason, "no [bar/c] (the bars: a, b)")
        }
    }

    // MARK: i3status-rust

    func testI3statusRustReadsBothFormatLanguagesClicksAndSources() throws {
        let b = try blocks("""
            theme = "solarized-dark"
            [[block]]
            block = "cpu"
            format = "{utilization} {barchart}"
            warning = 60
            [[block]]
            block = "memory"
            format = " $icon $mem_used_percents.eng(w:2) "
            [[block]]
            block = "sound"
            device_kind = "source"
            step_width = 3
            [[block.click]]
            button = "right"
            cmd = "pavucontrol"
            [[block]]
            block = "time"
            format = " $icon $timestamp.datetime(f:'%a %R') "
            [[block]]
            block = "custom"
            command = "echo hi"
            interval = "once"
            """, .i3statusRust)
        XCTAssertEqual(b.map(\.block), ["cpu", "mem", "microphone", "time", "command"])
        XCTAssertEqual(keys(b[0])["format"], .string("{busy}% {bars}"))
        XCTAssertEqual(keys(b[0])["warning"], .integer(60))
        XCTAssertEqual(keys(b[1])["format"], .string(" {percent}% "))
        XCTAssertEqual(keys(b[2])["step"], .integer(3))
        XCTAssertEqual(b[2].clicks, [ImportedClick(button: "right", cmd: "pavucontrol")])
        XCTAssertEqual(keys(b[3])["format"], .string("%a %R"))
        XCTAssertEqual(keys(b[4])["interval"], .string("once"))
    }

    func testTheResultIsCommentedAndTheSameBytesEachTime() throws {
        let text = "order += \"load\"\norder += \"ddate\"\nload { format = \"%1min\" max_threshold = \"2.5\" color_bad = \"#ff0000\" }\n"
        let a = try ConfigImporter.convert(text, from: .i3status).toml(shownFile: "i3status.conf")
        XCTAssertEqual(a, try ConfigImporter.convert(text, from: .i3status).toml(shownFile: "i3status.conf"))
        XCTAssertEqual(a, """
            # Imported from i3status.conf by `sysstats config import i3status`:
            # docs/configuration.md, "Moving from i3status"; `sysstats config check` checks it.

            [theme]
            warning = "#FFFF00"
            critical = "#FF0000"

            # from i3status config line 3: "load"
            # left behind: color_bad (sysstats colours a block by its state: [theme])
            [[block]]
            block = "load"
            format = "{1}"
            critical = 2.5

            # not carried over: i3status config line 2: "ddate": no sysstats block shows it; a command block would: `command = "ddate"`, `interval = 60`

            """)
    }
}
