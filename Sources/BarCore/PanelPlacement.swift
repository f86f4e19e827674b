// Where the wayland-panel output's layer surface sits: its anchor, layer and margin
// (`--anchor`, `--layer`, `--margin`, `--exclusive`, `--wayland-output`).

/// The edge or corner the panel is anchored to (`--anchor`); the raw values are the
/// layer-shell protocol's anchor bits (CBarWayland's CBARWL_ANCHOR_*: top 1, bottom 2,
/// left 4, right 8).
public enum PanelAnchor: UInt32, Sendable, CaseIterable {
    /// The top edge, centred along it.
    case top = 1
    /// The bottom edge, centred along it.
    case bottom = 2
    case topLeft = 5
    case topRight = 9
    case bottomLeft = 6
    case bottomRight = 10

    /// The name in `--anchor`.
    public var name: StaticString {
        switch self {
        case .top: "top"
        case .bottom: "bottom"
        case .topLeft: "top-left"
        case .topRight: "top-right"
        case .bottomLeft: "bottom-left"
        case .bottomRight: "bottom-right"
        }
    }

    /// Anchored to one edge only: the compositor can keep windows off its strip (`--exclusive`).
    public var isEdge: Bool { self == .top || self == .bottom }
}

/// The layer-shell layer (`--layer`), from the desktop up; the raw values are the protocol's.
public enum PanelLayer: UInt32, Sendable, CaseIterable {
    case background = 0
    case bottom = 1
    case top = 2
    case overlay = 3

    /// The name in `--layer`.
    public var name: StaticString {
        switch self {
        case .background: "background"
        case .bottom: "bottom"
        case .top: "top"
        case .overlay: "overlay"
        }
    }
}
