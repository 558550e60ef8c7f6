/// Resolution of C2PA JUMBF URIs (`self#jumbf=…`) against a manifest store.
///
///     self#jumbf=c2pa.assertions/c2pa.hash.data            relative to the given manifest
///     self#jumbf=/c2pa/urn:c2pa:…/c2pa.assertions/c2pa.hash.data   absolute from the store
///     self#jumbf=c2pa/urn:c2pa:…/c2pa.assertions/c2pa.hash.data    absolute too (c2pa-rs)
public enum JUMBFURI {
    public static let prefix = "self#jumbf="

    /// The label path of a URI, or nil when it is not a `self#jumbf=` URI. A path starting
    /// `c2pa/` is absolute too (c2pa-rs `to_normalized_uri` adds the missing `/`; its fragmented
    /// MP4 fixtures write `self#jumbf=c2pa/<manifest>/c2pa.assertions/…`).
    public static func path(of uri: String) -> (absolute: Bool, labels: [String])? {
        guard uri.hasPrefix(prefix) else { return nil }
        let p = uri.dropFirst(prefix.count)
        let absolute = p.hasPrefix("/") || p.hasPrefix("c2pa/")
        let labels = p.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !labels.isEmpty else { return nil }
        return (absolute, labels)
    }

    /// The superbox a URI names, relative URIs resolved inside `manifest`. Nil when absent.
    public static func resolve(_ uri: String, in store: ManifestStore, relativeTo manifest: Manifest) -> JUMBFBox? {
        guard let (absolute, labels) = path(of: uri) else { return nil }
        var box: JUMBFBox
        var rest = labels[...]
        if absolute {
            guard rest.first == store.root.label else { return nil }
            box = store.root
            rest = rest.dropFirst()
        } else {
            box = manifest.box
        }
        for l in rest {
            guard let next = box.child(labelled: l) else { return nil }
            box = next
        }
        return box
    }

    /// The manifest label an absolute URI names (`self#jumbf=/c2pa/<label>/…`), nil otherwise.
    public static func manifestLabel(of uri: String) -> String? {
        guard let (_, labels) = path(of: uri), labels.count >= 2, labels[0] == "c2pa" else { return nil }
        return labels[1]
    }

    /// The absolute URI of a box path inside a manifest (`self#jumbf=/c2pa/<manifest>/<path>`).
    public static func absolute(manifest: String, path: String) -> String {
        "\(prefix)/c2pa/\(manifest)/\(path)"
    }
}
