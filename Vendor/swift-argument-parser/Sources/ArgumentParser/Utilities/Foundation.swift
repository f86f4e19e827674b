//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2025 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// sysstats: this file imported FoundationEssentials, which a static link then carried whole
// (3 MB of the `sysstats` program). It now uses the standard library and sysstats' JSONCoding
// module instead; see ../../../README.sysstats.md.
internal import JSONCoding

extension Error {
  func describe() -> String {
    // Without Foundation there is no LocalizedError to ask; the description is the one
    // FoundationEssentials' branch gave for every other error.
    String(describing: self)
  }
}

enum JSONEncoder {
  /// `value` as JSON with its keys sorted, on one line (Foundation's encoder pretty-printed it).
  static func encode<T: Encodable>(_ value: T) -> String {
    (try? JSONWriter().encode(value)) ?? ""
  }
}
