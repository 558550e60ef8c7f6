extension BMFFHashAssertion.Exclusion {
    /// One exclusions-map; an optional field written as `null` is absent.
    init(cbor item: CBOR) throws(HashAssertionError) {
        guard item.mapValue != nil, let xpath = item["xpath"]?.textValue else { throw .badField("exclusions.xpath") }
        self.init(xpath: xpath)
        if let l = BMFFHashAssertion.present(item["length"]) {
            guard let v = l.intValue, v >= 0 else { throw .badField("length") }
            length = UInt64(v)
        }
        if let d = BMFFHashAssertion.present(item["data"]) {
            guard let a = d.arrayValue else { throw .badField("data") }
            var ms: [DataMatch] = []
            for m in a {
                guard let o = m["offset"]?.intValue, o >= 0, let v = m["value"]?.bytesValue else { throw .badField("data") }
                ms.append(.init(offset: UInt64(o), value: v))
            }
            data = ms
        }
        if let s = BMFFHashAssertion.present(item["subset"]) {
            guard let a = s.arrayValue else { throw .badField("subset") }
            var ss: [Subset] = []
            for m in a {
                guard let o = m["offset"]?.intValue, o >= 0, let l = m["length"]?.intValue, l >= 0 else {
                    throw .badField("subset")
                }
                ss.append(.init(offset: UInt64(o), length: UInt64(l)))
            }
            subset = ss
        }
        if let v = BMFFHashAssertion.present(item["version"]) {
            guard let n = v.intValue, (0...255).contains(n) else { throw .badField("version") }
            version = UInt8(n)
        }
        if let f = BMFFHashAssertion.present(item["flags"]) {
            guard let b = f.bytesValue else { throw .badField("flags") }
            flags = b
        }
        if let x = BMFFHashAssertion.present(item["exact"]) {
            guard let b = x.boolValue else { throw .badField("exact") }
            exact = b
        }
    }

    /// The exclusions-map in c2pa-rs's field order; `nulls` writes unset fields as `null`.
    func cbor(nulls: Bool) -> CBOR {
        var p: [(String, CBOR)] = [("xpath", .text(xpath))]
        func put(_ key: String, _ v: CBOR?) {
            if let v { p.append((key, v)) } else if nulls { p.append((key, .null)) }
        }
        put("length", length.map { .unsigned($0) })
        put("data", data.map { .array($0.map { .textMap([("offset", .unsigned($0.offset)), ("value", .bytes($0.value))]) }) })
        put("subset", subset.map { .array($0.map { .textMap([("offset", .unsigned($0.offset)), ("length", .unsigned($0.length))]) }) })
        put("version", version.map { .unsigned(UInt64($0)) })
        put("flags", flags.map { .bytes($0) })
        put("exact", exact.map { .bool($0) })
        return .textMap(p)
    }
}
