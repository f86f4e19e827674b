import TOML

// The case tables: TOML 1.0's examples (https://toml.io/en/v1.0.0, in the order of the
// specification, dates and times excepted) and more at the edges. TOMLSpecTests runs them
// through the parser; TOMLPythonTests checks that Python's tomllib reads the valid ones
// as the same values and refuses the invalid ones. Raw string literals (#"""...""") keep
// TOML's backslashes as written.

struct ValidCase {
    let name: String
    let text: String
    /// The document in `Dump.readable` form.
    let expected: String
    init(_ name: String, _ text: String, _ expected: String) {
        self.name = name; self.text = text; self.expected = expected
    }
}

struct InvalidCase {
    let name: String
    let bytes: [UInt8]
    let line: Int
    let column: Int
    let reason: TOMLError.Reason
    init(_ name: String, _ text: String, _ line: Int, _ column: Int, _ reason: TOMLError.Reason) {
        self.name = name; self.bytes = Array(text.utf8); self.line = line; self.column = column; self.reason = reason
    }
    init(_ name: String, bytes: [UInt8], _ line: Int, _ column: Int, _ reason: TOMLError.Reason) {
        self.name = name; self.bytes = bytes; self.line = line; self.column = column; self.reason = reason
    }
}

enum TOMLCases {
    static let valid: [ValidCase] = [
        // Comments
        ValidCase("comments", #"""
            # This is a full-line comment
            key = "value"  # This is a comment at the end of a line
            another = "# This is not a comment"
            """#, ##"{key="value",another="# This is not a comment"}"##),
        ValidCase("comment-only and blank lines", "# only a comment\n\n   \n\t# indented\n", "{}"),
        ValidCase("empty document", "", "{}"),
        ValidCase("no final newline", "a = 1", "{a=1}"),
        ValidCase("tab in a comment, C1 control character in a comment", "# a\tb \u{85}\na = 1 #\t\n", "{a=1}"),
        ValidCase("CRLF line ends", "a = 1\r\n# c\r\n[t]\r\nb = \"x\"\r\n", #"{a=1,t={b="x"}}"#),
        // Keys
        ValidCase("bare keys", #"""
            key = "value"
            bare_key = "value"
            bare-key = "value"
            1234 = "value"
            """#, #"{key="value",bare_key="value",bare-key="value",1234="value"}"#),
        ValidCase("quoted keys", #"""
            "127.0.0.1" = "value"
            "character encoding" = "value"
            "ʎǝʞ" = "value"
            'key2' = "value"
            'quoted "value"' = "value"
            """#, #"{"127.0.0.1"="value","character encoding"="value","ʎǝʞ"="value",key2="value","quoted \"value\""="value"}"#),
        ValidCase("empty quoted keys", #"""
            "" = "blank"
            [t]
            '' = 'blank'
            """#, #"{""="blank",t={""="blank"}}"#),
        ValidCase("dotted keys", #"""
            name = "Orange"
            physical.color = "orange"
            physical.shape = "round"
            site."google.com" = true
            """#, #"{name="Orange",physical={color="orange",shape="round"},site={"google.com"=true}}"#),
        ValidCase("whitespace around dots", #"""
            fruit.name = "banana"     # this is best practice
            fruit. color = "yellow"    # same as fruit.color
            fruit . flavor = "banana"   # same as fruit.flavor
            """#, #"{fruit={name="banana",color="yellow",flavor="banana"}}"#),
        ValidCase("dotted keys add to a table they made", #"""
            # This makes the key "fruit" into a table.
            fruit.apple.smooth = true

            # So then you can add to the table "fruit" like so:
            fruit.orange = 2
            """#, "{fruit={apple={smooth=true},orange=2}}"),
        ValidCase("dotted keys out of order", #"""
            apple.type = "fruit"
            orange.type = "fruit"

            apple.skin = "thin"
            orange.skin = "thick"

            apple.color = "red"
            orange.color = "orange"
            """#, #"{apple={type="fruit",skin="thin",color="red"},orange={type="fruit",skin="thick",color="orange"}}"#),
        ValidCase("a float-looking key is two keys", #"3.14159 = "pi""#, #"{3={14159="pi"}}"#),
        ValidCase("escapes in a quoted key", #""a\tb\u00e9" = 1"#, #"{"a\tbé"=1}"#),
        // Strings
        ValidCase("basic string with escapes", #"""
            str = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF."
            """#, #"{str="I'm a string. \"You can quote me\". Name\tJosé\nLocation\tSF."}"#),
        ValidCase("every escape", #"""
            s = "\b\t\n\f\r\"\\\u0041\U0001F600\u00e9\U0010FFFF\uFFFF"
            """#, #"{s="\u{8}\t\n\u{c}\r\"\\A😀é\#u{10FFFF}\#u{FFFF}"}"#),
        ValidCase("multi-line basic string", #"""
            str1 = """
            Roses are red
            Violets are blue"""
            """#, #"{str1="Roses are red\nViolets are blue"}"#),
        ValidCase("line-ending backslashes", #"""
            # The following strings are byte-for-byte equivalent:
            str1 = "The quick brown fox jumps over the lazy dog."

            str2 = """
            The quick brown \


              fox jumps over \
                the lazy dog."""

            str3 = """\
                   The quick brown \
                   fox jumps over \
                   the lazy dog.\
                   """
            """#, #"{str1="The quick brown fox jumps over the lazy dog.",str2="The quick brown fox jumps over the lazy dog.",str3="The quick brown fox jumps over the lazy dog."}"#),
        ValidCase("line-ending backslash followed by blanks", "s = \"\"\"a \\  \t\n  b\"\"\"", #"{s="a b"}"#),
        ValidCase("quotes inside multi-line basic strings", #"""
            str4 = """Here are two quotation marks: "". Simple enough."""
            str5 = """Here are three quotation marks: ""\"."""
            str6 = """Here are fifteen quotation marks: ""\"""\"""\"""\"""\"."""

            # "This," she said, "is just a pointless statement."
            str7 = """"This," she said, "is just a pointless statement.""""
            """#, #"{str4="Here are two quotation marks: \"\". Simple enough.",str5="Here are three quotation marks: \"\"\".",str6="Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\".",str7="\"This,\" she said, \"is just a pointless statement.\""}"#),
        ValidCase("multi-line basic string with CRLF and tabs", "s = \"\"\"\r\na\tb\r\nc\"\"\"\r\n", #"{s="a\tb\nc"}"#),
        ValidCase("literal strings", #"""
            # What you see is what you get.
            winpath  = 'C:\Users\nodejs\templates'
            winpath2 = '\\ServerX\admin$\system32\'
            quoted   = 'Tom "Dubs" Preston-Werner'
            regex    = '<\i\c*\s*>'
            """#, #"{winpath="C:\\Users\\nodejs\\templates",winpath2="\\\\ServerX\\admin$\\system32\\",quoted="Tom \"Dubs\" Preston-Werner",regex="<\\i\\c*\\s*>"}"#),
        ValidCase("multi-line literal strings", #"""
            regex2 = '''I [dw]on't need \d{2} apples'''
            lines  = '''
            The first newline is
            trimmed in raw strings.
               All other whitespace
               is preserved.
            '''
            """#, #"{regex2="I [dw]on't need \\d{2} apples",lines="The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n"}"#),
        ValidCase("quotes inside multi-line literal strings", #"""
            quot15 = '''Here are fifteen quotation marks: """""""""""""""'''

            # apos15 = '''Here are fifteen apostrophes: ''''''''''''''''''  # INVALID
            apos15 = "Here are fifteen apostrophes: '''''''''''''''"

            # 'That,' she said, 'is still pointless.'
            str = ''''That,' she said, 'is still pointless.''''
            """#, #"{quot15="Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"",apos15="Here are fifteen apostrophes: '''''''''''''''",str="'That,' she said, 'is still pointless.'"}"#),
        ValidCase("empty strings of every form", #"""
            a = ""
            b = ''
            c = """"""
            d = ''''''
            e = """
            """
            """#, #"{a="",b="",c="",d="",e=""}"#),
        ValidCase("a tab and non-ASCII text in strings", "a = \"x\ty\"\nb = 'é\t€'\n", #"{a="x\ty",b="é\t€"}"#),
        // Integers
        ValidCase("integers", #"""
            int1 = +99
            int2 = 42
            int3 = 0
            int4 = -17
            int5 = 1_000
            int6 = 5_349_221
            int7 = 53_49_221  # Indian number system grouping
            int8 = 1_2_3_4_5  # VALID but discouraged
            """#, "{int1=99,int2=42,int3=0,int4=-17,int5=1000,int6=5349221,int7=5349221,int8=12345}"),
        ValidCase("hexadecimal, octal and binary integers", #"""
            # hexadecimal with prefix `0x`
            hex1 = 0xDEADBEEF
            hex2 = 0xdeadbeef
            hex3 = 0xdead_beef

            # octal with prefix `0o`
            oct1 = 0o01234567
            oct2 = 0o755 # useful for Unix file permissions

            # binary with prefix `0b`
            bin1 = 0b11010110
            """#, "{hex1=3735928559,hex2=3735928559,hex3=3735928559,oct1=342391,oct2=493,bin1=214}"),
        ValidCase("the ends of the 64-bit range", #"""
            max = 9223372036854775807
            min = -9223372036854775808
            hex = 0x7FFF_FFFF_FFFF_FFFF
            oct = 0o777777777777777777777
            bin = 0b111111111111111111111111111111111111111111111111111111111111111
            zeros = [+0, -0, 0x0, 0o0, 0b0, 0x000001]
            """#, "{max=9223372036854775807,min=-9223372036854775808,hex=9223372036854775807,oct=9223372036854775807,bin=9223372036854775807,zeros=[0,0,0,0,0,1]}"),
        // Floats
        ValidCase("floats", #"""
            # fractional
            flt1 = +1.0
            flt2 = 3.1415
            flt3 = -0.01

            # exponent
            flt4 = 5e+22
            flt5 = 1e06
            flt6 = -2E-2

            # both
            flt7 = 6.626e-34
            flt8 = 224_617.445_991_228
            """#, "{flt1=1.0,flt2=3.1415,flt3=-0.01,flt4=5e+22,flt5=1000000.0,flt6=-0.02,flt7=6.626e-34,flt8=224617.445991228}"),
        ValidCase("infinity and not a number", #"""
            # infinity
            sf1 = inf  # positive infinity
            sf2 = +inf # positive infinity
            sf3 = -inf # negative infinity

            # not a number
            sf4 = nan  # actual sNaN/qNaN encoding is implementation-specific
            sf5 = +nan # same as `nan`
            sf6 = -nan # valid, actual encoding is implementation-specific
            """#, "{sf1=inf,sf2=inf,sf3=-inf,sf4=nan,sf5=nan,sf6=nan}"),
        ValidCase("floats at the edges", #"""
            zero = [0.0, -0.0, +0.0, 0e0, 0E+0, 0.0e-0]
            tiny = 4.9406564584124654e-324
            below = 2.4703282292062327e-324
            max = 1.7976931348623157e308
            over = 1e309
            exact = [0.1, 0.2, 0.3, 123456789012345678901234567890.0, 9007199254740993.0]
            exponent = [1e0_1, 1_0e-0_1, 1.5E00]
            """#, "{zero=[0.0,-0.0,0.0,0.0,0.0,0.0],tiny=5e-324,below=0.0,max=1.7976931348623157e+308,over=inf,exact=[0.1,0.2,0.3,1.2345678901234568e+29,9007199254740992.0],exponent=[10.0,1.0,1.5]}"),
        // Booleans
        ValidCase("booleans", "bool1 = true\nbool2 = false\n", "{bool1=true,bool2=false}"),
        // Arrays
        ValidCase("arrays", #"""
            integers = [ 1, 2, 3 ]
            colors = [ "red", "yellow", "green" ]
            nested_arrays_of_ints = [ [ 1, 2 ], [3, 4, 5] ]
            nested_mixed_array = [ [ 1, 2 ], ["a", "b", "c"] ]
            string_array = [ "all", 'strings', """are the same""", '''type''' ]

            # Mixed-type arrays are allowed
            numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]
            contributors = [
              "Foo Bar <foo@example.com>",
              { name = "Baz Qux", email = "bazqux@example.com", url = "https://example.com/bazqux" }
            ]
            """#, #"{integers=[1,2,3],colors=["red","yellow","green"],nested_arrays_of_ints=[[1,2],[3,4,5]],nested_mixed_array=[[1,2],["a","b","c"]],string_array=["all","strings","are the same","type"],numbers=[0.1,0.2,0.5,1,2,5],contributors=["Foo Bar <foo@example.com>",{name="Baz Qux",email="bazqux@example.com",url="https://example.com/bazqux"}]}"#),
        ValidCase("multi-line arrays, trailing comma, comments inside", #"""
            integers2 = [
              1, 2, 3
            ]

            integers3 = [
              1,
              2, # this is ok
            ]
            empty = [ # nothing
            ]
            spaced = [1
            ,2]
            """#, "{integers2=[1,2,3],integers3=[1,2],empty=[],spaced=[1,2]}"),
        // Tables
        ValidCase("tables", #"""
            [table-1]
            key1 = "some string"
            key2 = 123

            [table-2]
            key1 = "another string"
            key2 = 456
            """#, #"{table-1={key1="some string",key2=123},table-2={key1="another string",key2=456}}"#),
        ValidCase("quoted and dotted table names", #"""
            [dog."tater.man"]
            type.name = "pug"
            """#, #"{dog={"tater.man"={type={name="pug"}}}}"#),
        ValidCase("whitespace in table headers", #"""
            [a.b.c]            # this is best practice
            [ d.e.f ]          # same as [d.e.f]
            [ g .  h  . i ]    # same as [g.h.i]
            [ j . "ʞ" . 'l' ]  # same as [j."ʞ".'l']
            """#, #"{a={b={c={}}},d={e={f={}}},g={h={i={}}},j={"ʞ"={l={}}}}"#),
        ValidCase("a super-table defined afterwards", #"""
            # [x] you
            # [x.y] don't
            # [x.y.z] need these
            [x.y.z.w] # for this to work

            [x] # defining a super-table afterward is ok
            """#, "{x={y={z={w={}}}}}"),
        ValidCase("tables out of order", #"""
            # VALID BUT DISCOURAGED
            [fruit.apple]
            [animal]
            [fruit.orange]
            """#, "{fruit={apple={},orange={}},animal={}}"),
        ValidCase("the root table", #"""
            # Top-level table begins.
            name = "Fido"
            breed = "pug"

            # Top-level table ends.
            [owner]
            name = "Regina Dogman"
            member_since = "1999-08-04"
            """#, #"{name="Fido",breed="pug",owner={name="Regina Dogman",member_since="1999-08-04"}}"#),
        ValidCase("dotted keys define tables", #"""
            fruit.apple.color = "red"
            # Defines a table named fruit
            # Defines a table named fruit.apple

            fruit.apple.taste.sweet = true
            # Defines a table named fruit.apple.taste
            # fruit and fruit.apple were already created
            """#, #"{fruit={apple={color="red",taste={sweet=true}}}}"#),
        ValidCase("sub-tables of a table made by dotted keys", #"""
            [fruit]
            apple.color = "red"
            apple.taste.sweet = true

            # [fruit.apple]  # INVALID
            # [fruit.apple.taste]  # INVALID

            [fruit.apple.texture]  # you can add sub-tables
            smooth = true
            """#, #"{fruit={apple={color="red",taste={sweet=true},texture={smooth=true}}}}"#),
        ValidCase("dotted keys into a header's implicit table", #"""
            [a.b.c]
            z = 9
            [a]
            b.d = 1
            """#, "{a={b={c={z=9},d=1}}}"),
        // Inline tables
        ValidCase("inline tables", #"""
            name = { first = "Tom", last = "Preston-Werner" }
            point = { x = 1, y = 2 }
            animal = { type.name = "pug" }
            """#, #"{name={first="Tom",last="Preston-Werner"},point={x=1,y=2},animal={type={name="pug"}}}"#),
        ValidCase("inline tables: empty, nested, dotted, an array over lines inside", #"""
            empty = {}
            spaced = {   }
            nested = { a = { b = { c = 1 } }, d.e = 2, d.f = 3 }
            lines = { list = [
              1,
              2,
            ] }
            """#, "{empty={},spaced={},nested={a={b={c=1}},d={e=2,f=3}},lines={list=[1,2]}}"),
        // Arrays of tables
        ValidCase("array of tables", #"""
            [[products]]
            name = "Hammer"
            sku = 738594937

            [[products]]  # empty table within the array

            [[products]]
            name = "Nail"
            sku = 284758393

            color = "gray"
            """#, #"{products=[{name="Hammer",sku=738594937},{},{name="Nail",sku=284758393,color="gray"}]}"#),
        ValidCase("nested arrays of tables and sub-tables", #"""
            [[fruits]]
            name = "apple"

            [fruits.physical]  # subtable
            color = "red"
            shape = "round"

            [[fruits.varieties]]  # nested array of tables
            name = "red delicious"

            [[fruits.varieties]]
            name = "granny smith"


            [[fruits]]
            name = "banana"

            [[fruits.varieties]]
            name = "plantain"
            """#, #"{fruits=[{name="apple",physical={color="red",shape="round"},varieties=[{name="red delicious"},{name="granny smith"}]},{name="banana",varieties=[{name="plantain"}]}]}"#),
        ValidCase("an array of inline tables", #"""
            points = [ { x = 1, y = 2, z = 3 },
                       { x = 7, y = 8, z = 9 },
                       { x = 2, y = 4, z = 8 } ]
            """#, "{points=[{x=1,y=2,z=3},{x=7,y=8,z=9},{x=2,y=4,z=8}]}"),
        ValidCase("the specification's opening example, without its date", #"""
            # This is a TOML document

            title = "TOML Example"

            [owner]
            name = "Tom Preston-Werner"

            [database]
            enabled = true
            ports = [ 8000, 8001, 8002 ]
            data = [ ["delta", "phi"], [3.14] ]
            temp_targets = { cpu = 79.5, case = 72.0 }

            [servers]

            [servers.alpha]
            ip = "10.0.0.1"
            role = "frontend"

            [servers.beta]
            ip = "10.0.0.2"
            role = "backend"
            """#, #"{title="TOML Example",owner={name="Tom Preston-Werner"},database={enabled=true,ports=[8000,8001,8002],data=[["delta","phi"],[3.14]],temp_targets={cpu=79.5,case=72.0}},servers={alpha={ip="10.0.0.1",role="frontend"},beta={ip="10.0.0.2",role="backend"}}}"#),
        ValidCase("keys that look like other values", #"""
            true = 1
            false = 2
            inf = 3
            nan = 4
            0x10 = 5
            -1 = 6
            1979-05-27 = 7
            """#, "{true=1,false=2,inf=3,nan=4,0x10=5,-1=6,1979-05-27=7}"),
        ValidCase("values packed without blanks", "a=1\nb=[1,2,{c=\"d\"}]\n[t]\ne={f=true}#x\n", #"{a=1,b=[1,2,{c="d"}],t={e={f=true}}}"#),
    ]

    /// Read here, refused by tomllib: a UTF-8 byte order mark at the start (toml-test's
    /// valid/utf8-bom cases; editors on some systems write one).
    static let acceptedOnPurpose: [ValidCase] = [
        ValidCase("UTF-8 byte order mark at the start", "\u{FEFF}a = 1\n", "{a=1}"),
    ]

    static let invalid: [InvalidCase] = [
        // Encoding and characters
        InvalidCase("NUL byte", "a = 1\u{0}\n", 1, 6, .controlCharacter),
        InvalidCase("control character in a comment", "# bell \u{7}\n", 1, 8, .controlCharacter),
        InvalidCase("DEL in a comment", "a = 1 # \u{7F}\n", 1, 9, .controlCharacter),
        InvalidCase("raw control character in a basic string", "a = \"\u{1B}[31m\"\n", 1, 6, .controlCharacter),
        InvalidCase("raw control character in a literal string", "a = 'x\u{8}'\n", 1, 7, .controlCharacter),
        InvalidCase("raw control character in a multi-line string", "a = \"\"\"\n\u{C}\"\"\"\n", 2, 1, .controlCharacter),
        InvalidCase("bare carriage return", "a = 1\rb = 2\n", 1, 6, .bareCarriageReturn),
        InvalidCase("invalid UTF-8 in a string", bytes: Array("a = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8), 1, 6, .invalidUTF8),
        InvalidCase("UTF-8 encoded surrogate", bytes: Array("# ".utf8) + [0xED, 0xA0, 0x80], 1, 3, .invalidUTF8),
        InvalidCase("overlong UTF-8", bytes: Array("a = 'x".utf8) + [0xC0, 0xAF] + Array("'".utf8), 1, 7, .invalidUTF8),
        InvalidCase("byte order mark after the start", "a = 1\n\u{FEFF}b = 2\n", 2, 1, .expectedKey),
        // Key/value pairs and keys
        InvalidCase("key without a value", "key = # INVALID\n", 1, 7, .expectedValue),
        InvalidCase("two pairs on one line", #"first = "Tom" last = "Preston-Werner" # INVALID"#, 1, 15, .expectedEndOfLine),
        InvalidCase("no key name", #"= "no key name"  # INVALID"#, 1, 1, .expectedKey),
        InvalidCase("key without '='", "key\n", 1, 4, .expectedEquals),
        InvalidCase("key with a space", "a b = 1\n", 1, 3, .expectedEquals),
        InvalidCase("key ending in a dot", "a. = 1\n", 1, 4, .expectedKey),
        InvalidCase("key starting with a dot", ".a = 1\n", 1, 1, .expectedKey),
        InvalidCase("key with two dots", "a..b = 1\n", 1, 3, .expectedKey),
        InvalidCase("multi-line string as a key", #""""a""" = 1"#, 1, 3, .expectedEquals),
        InvalidCase("key with a newline before '='", "a\n= 1\n", 1, 2, .expectedEquals),
        InvalidCase("value on the next line", "a =\n1\n", 1, 4, .expectedValue),
        InvalidCase("duplicate keys", "name = \"Tom\"\nname = \"Pradyun\"\n", 2, 1, .duplicateKey),
        InvalidCase("duplicate keys, bare and quoted", "spelling = \"favorite\"\n\"spelling\" = \"favourite\"\n", 2, 1, .duplicateKey),
        InvalidCase("duplicate keys, escaped", "\"\\u0061\" = 1\na = 2\n", 2, 1, .duplicateKey),
        InvalidCase("a value used as a table by dotted keys", "fruit.apple = 1\nfruit.apple.smooth = true\n", 2, 7, .keyIsNotATable),
        InvalidCase("a table made by dotted keys redefined as a value", "a.b = 1\na = 2\n", 2, 1, .duplicateKey),
        // Strings
        InvalidCase("invalid escape", #"a = "\x41""#, 1, 6, .invalidEscape),
        InvalidCase("\\e is TOML 1.1", #"a = "\e""#, 1, 6, .invalidEscape),
        InvalidCase("escaped space", #"a = "a\ b""#, 1, 7, .invalidEscape),
        InvalidCase("short \\u escape", #"a = "\u12""#, 1, 6, .invalidEscape),
        InvalidCase("lower-case \\u digits missing", #"a = "\U0001F60""#, 1, 6, .invalidEscape),
        InvalidCase("surrogate escape", #"a = "\uD800""#, 1, 6, .invalidUnicodeEscape),
        InvalidCase("escape above U+10FFFF", #"a = "\U00110000""#, 1, 6, .invalidUnicodeEscape),
        InvalidCase("backslash at the end of the file in a string", #"a = "abc\"#, 1, 9, .invalidEscape),
        InvalidCase("unterminated basic string", "a = \"abc\n", 1, 5, .unterminatedString),
        InvalidCase("unterminated literal string", "a = 'abc\nb = 1\n", 1, 5, .unterminatedString),
        InvalidCase("unterminated multi-line basic string", "a = \"\"\"abc\n\n", 1, 5, .unterminatedString),
        InvalidCase("unterminated multi-line literal string", "a = '''abc''\n", 1, 5, .unterminatedString),
        InvalidCase("three quotes inside a multi-line string", #"str5 = """Here are three quotation marks: """."""  # INVALID"#, 1, 46, .expectedEndOfLine),
        InvalidCase("fifteen apostrophes", #"apos15 = '''Here are fifteen apostrophes: ''''''''''''''''''  # INVALID"#, 1, 48, .expectedEndOfLine),
        InvalidCase("backslash and blanks not ending a line", "a = \"\"\"x\\  y\"\"\"\n", 1, 9, .invalidEscape),
        InvalidCase("invalid escape in a multi-line string", "a = \"\"\"\nok\n\\q\"\"\"\n", 3, 1, .invalidEscape),
        // Integers
        InvalidCase("leading zero", "a = 01\n", 1, 5, .leadingZero),
        InvalidCase("leading zero after a sign", "a = -012\n", 1, 5, .leadingZero),
        InvalidCase("leading zero with an underscore", "a = 0_1\n", 1, 5, .leadingZero),
        InvalidCase("double underscore", "a = 1__2\n", 1, 5, .misplacedUnderscore),
        InvalidCase("trailing underscore", "a = 1_\n", 1, 5, .misplacedUnderscore),
        InvalidCase("leading underscore", "a = _1\n", 1, 5, .expectedValue),
        InvalidCase("underscore after the sign", "a = +_1\n", 1, 5, .invalidNumber),
        InvalidCase("sign alone", "a = -\n", 1, 5, .invalidNumber),
        InvalidCase("signed hexadecimal", "a = +0x1F\n", 1, 5, .invalidNumber),
        InvalidCase("upper-case prefix", "a = 0X1F\n", 1, 5, .invalidNumber),
        InvalidCase("hexadecimal without digits", "a = 0x\n", 1, 5, .invalidNumber),
        InvalidCase("octal digit out of range", "a = 0o8\n", 1, 5, .invalidNumber),
        InvalidCase("binary digit out of range", "a = 0b102\n", 1, 5, .invalidNumber),
        InvalidCase("underscore after a prefix", "a = 0x_1\n", 1, 5, .misplacedUnderscore),
        InvalidCase("a number with letters", "a = 12ab\n", 1, 5, .invalidNumber),
        InvalidCase("a number with a space", "a = 1 2\n", 1, 7, .expectedEndOfLine),
        // Floats
        InvalidCase("float without an integer part", "invalid_float_1 = .7\n", 1, 19, .expectedValue),
        InvalidCase("float without fraction digits", "invalid_float_2 = 7.\n", 1, 19, .invalidNumber),
        InvalidCase("float with a dot before its exponent", "invalid_float_3 = 3.e+20\n", 1, 19, .invalidNumber),
        InvalidCase("float with a leading zero", "a = 03.14\n", 1, 5, .leadingZero),
        InvalidCase("float exponent without digits", "a = 1e\n", 1, 5, .invalidNumber),
        InvalidCase("float exponent with two signs", "a = 1e+-1\n", 1, 5, .invalidNumber),
        InvalidCase("underscore before the dot", "a = 1_.5\n", 1, 5, .misplacedUnderscore),
        InvalidCase("underscore after the dot", "a = 1._5\n", 1, 5, .misplacedUnderscore),
        InvalidCase("underscore before the exponent", "a = 1.5_e3\n", 1, 5, .misplacedUnderscore),
        InvalidCase("two dots", "a = 1.2.3\n", 1, 5, .invalidNumber),
        InvalidCase("capitalised inf", "a = Inf\n", 1, 5, .expectedValue),
        InvalidCase("infinity spelled out", "a = infinity\n", 1, 5, .expectedValue),
        InvalidCase("nan with a fraction", "a = nan.0\n", 1, 5, .expectedValue),
        InvalidCase("signed inf with a suffix", "a = -infx\n", 1, 5, .invalidNumber),
        // Booleans
        InvalidCase("capitalised boolean", "a = True\n", 1, 5, .expectedValue),
        InvalidCase("boolean with a suffix", "a = truex\n", 1, 5, .expectedValue),
        InvalidCase("truncated boolean", "a = fals\n", 1, 5, .expectedValue),
        // Arrays
        InvalidCase("array without commas", "a = [1 2]\n", 1, 8, .unterminatedArray),
        InvalidCase("array with two commas", "a = [1,,2]\n", 1, 8, .expectedValue),
        InvalidCase("array with only a comma", "a = [,]\n", 1, 6, .expectedValue),
        InvalidCase("unterminated array", "a = [1, 2\n", 2, 1, .unterminatedArray),
        InvalidCase("unterminated array at a new key", "a = [1,\nb = 2\n", 2, 1, .expectedValue),
        // Inline tables
        InvalidCase("inline table over two lines", "a = { b = 1,\n c = 2 }\n", 1, 13, .expectedKey),
        InvalidCase("newline before an inline table's '}'", "a = { b = 1\n}\n", 1, 12, .unterminatedInlineTable),
        InvalidCase("trailing comma in an inline table", "a = { b = 1, }\n", 1, 12, .trailingCommaInInlineTable),
        InvalidCase("inline table without commas", "a = { b = 1 c = 2 }\n", 1, 13, .unterminatedInlineTable),
        InvalidCase("duplicate key in an inline table", "a = { b = 1, b = 2 }\n", 1, 14, .duplicateKey),
        InvalidCase("inline table extended by a dotted key", "[product]\ntype = { name = \"Nail\" }\ntype.edible = false  # INVALID\n", 3, 1, .inlineTableExtended),
        InvalidCase("dotted-key table redefined as an inline table", "[product]\ntype.name = \"Nail\"\ntype = { edible = false }  # INVALID\n", 3, 1, .duplicateKey),
        InvalidCase("inline table extended by a header", "a = { b = 1 }\n[a]\nc = 2\n", 2, 2, .inlineTableExtended),
        InvalidCase("inline table extended by a sub-table header", "a = { b = 1 }\n[a.c]\n", 2, 2, .inlineTableExtended),
        InvalidCase("inline table extended inside its own braces", "a = { b = { c = 1 }, b.d = 2 }\n", 1, 22, .inlineTableExtended),
        // Tables
        InvalidCase("table defined twice", "[fruit]\napple = \"red\"\n\n[fruit]\norange = \"orange\"\n", 4, 2, .tableDefinedTwice),
        InvalidCase("a value redefined as a table", "[fruit]\napple = \"red\"\n\n[fruit.apple]\ntexture = \"smooth\"\n", 4, 8, .keyIsNotATable),
        InvalidCase("a table made by dotted keys given a header", "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple]  # INVALID\n", 4, 8, .tableDefinedTwice),
        InvalidCase("a nested table made by dotted keys given a header", "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.taste]  # INVALID\n", 4, 14, .tableDefinedTwice),
        InvalidCase("dotted keys into a table defined by a header", "[a.b.c]\nz = 9\n[a]\nb.c.t = 1\n", 4, 3, .dottedKeyIntoDefinedTable),
        InvalidCase("super-table defined twice after its sub-table", "[x.y]\n[x]\n[x]\n", 3, 2, .tableDefinedTwice),
        InvalidCase("empty table header", "[]\n", 1, 2, .expectedKey),
        InvalidCase("unterminated table header", "[a\n", 1, 3, .unterminatedHeader),
        InvalidCase("header with text after it", "[a] b = 1\n", 1, 5, .expectedEndOfLine),
        InvalidCase("header with an extra bracket", "[a]]\n", 1, 4, .expectedEndOfLine),
        InvalidCase("header with a trailing dot", "[a.]\n", 1, 4, .expectedKey),
        InvalidCase("space between the brackets of [[", "[ [a]]\n", 1, 3, .expectedKey),
        InvalidCase("array-of-tables header closed by one bracket", "[[a]\n", 1, 5, .unterminatedHeader),
        InvalidCase("array-of-tables header with a space before ]]", "[[a] ]\n", 1, 5, .unterminatedHeader),
        // Arrays of tables
        InvalidCase("array of tables after a table of the same name", "[fruit.physical]\ncolor = \"red\"\n\n[[fruit]]\nname = \"apple\"\n", 4, 3, .tableAndArrayOfTables),
        InvalidCase("array of tables on an array value", "fruits = []\n\n[[fruits]] # Not allowed\n", 3, 3, .staticArrayExtended),
        InvalidCase("table on an array of tables", "[[fruits]]\nname = \"apple\"\n\n[[fruits.varieties]]\nname = \"red delicious\"\n\n[fruits.varieties]\nname = \"granny smith\"\n", 7, 9, .tableAndArrayOfTables),
        InvalidCase("array of tables on a table", "[[fruits]]\nname = \"apple\"\n\n[fruits.physical]\ncolor = \"red\"\nshape = \"round\"\n\n[[fruits.physical]]\ncolor = \"green\"\n", 8, 10, .tableAndArrayOfTables),
        InvalidCase("sub-table header through an array value", "a = [{ b = 1 }]\n[a.c]\n", 2, 2, .staticArrayExtended),
        InvalidCase("dotted keys into an array of tables", "[[t.a]]\n[t]\na.b = 1\n", 3, 1, .dottedKeyIntoDefinedTable),
        InvalidCase("array of tables on a value", "a = 1\n[[a]]\n", 2, 3, .keyIsNotATable),
        // Dates and times are refused even where they look like something else.
        InvalidCase("a date with letters after it", "a = 1979-05-27x\n", 1, 5, .dateTimeUnsupported),
        InvalidCase("an invalid month", "a = 1979-13-27\n", 1, 5, .dateTimeUnsupported),
        InvalidCase("a time with one hour digit", "a = 7:32:00\n", 1, 6, .expectedEndOfLine),
        InvalidCase("a signed date", "a = +1979-05-27\n", 1, 5, .invalidNumber),
    ]

    /// Valid TOML to tomllib that this parser refuses on purpose: dates and times
    /// (unsupported), and integers beyond 64 bits (TOML 1.0 requires an error; tomllib,
    /// with Python's integers, reads them).
    static let refusedOnPurpose: [InvalidCase] = [
        InvalidCase("offset date-time", "odt1 = 1979-05-27T07:32:00Z\n", 1, 8, .dateTimeUnsupported),
        InvalidCase("offset date-time with an offset", "odt2 = 1979-05-27T00:32:00-07:00\n", 1, 8, .dateTimeUnsupported),
        InvalidCase("offset date-time with fractions", "odt3 = 1979-05-27T00:32:00.999999-07:00\n", 1, 8, .dateTimeUnsupported),
        InvalidCase("offset date-time with a space", "odt4 = 1979-05-27 07:32:00Z\n", 1, 8, .dateTimeUnsupported),
        InvalidCase("local date-time", "ldt1 = 1979-05-27T07:32:00\n", 1, 8, .dateTimeUnsupported),
        InvalidCase("local date-time with fractions", "ldt2 = 1979-05-27T00:32:00.999999\n", 1, 8, .dateTimeUnsupported),
        InvalidCase("local date", "ld1 = 1979-05-27\n", 1, 7, .dateTimeUnsupported),
        InvalidCase("local time", "lt1 = 07:32:00\n", 1, 7, .dateTimeUnsupported),
        InvalidCase("local time with fractions", "lt2 = 00:32:00.999999\n", 1, 7, .dateTimeUnsupported),
        InvalidCase("date in an array", "a = [1, 1979-05-27]\n", 1, 9, .dateTimeUnsupported),
        InvalidCase("date in an inline table", "[t]\na = { when = 1979-05-27 }\n", 2, 14, .dateTimeUnsupported),
        InvalidCase("the specification's owner with a date", "[owner]\nname = \"Regina Dogman\"\nmember_since = 1999-08-04\n", 3, 16, .dateTimeUnsupported),
        InvalidCase("above the 64-bit range", "a = 9223372036854775808\n", 1, 5, .integerOverflow),
        InvalidCase("hexadecimal above the 64-bit range", "a = 0x8000000000000000\n", 1, 5, .integerOverflow),
        InvalidCase("below the 64-bit range", "a = -9223372036854775809\n", 1, 5, .integerOverflow),
        InvalidCase("huge integer", "a = " + String(repeating: "9", count: 400) + "\n", 1, 5, .integerOverflow),
    ]
}
