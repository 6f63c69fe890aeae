internal import Foundation
import HTTPCore

/// The vocabularies of draft 2020-12 whose keywords assert or apply subschemas (core is always on).
struct SchemaVocabularies: OptionSet, Hashable, Sendable {
    let rawValue: Int
    static let applicator = SchemaVocabularies(rawValue: 1)
    static let unevaluated = SchemaVocabularies(rawValue: 2)
    static let validation = SchemaVocabularies(rawValue: 4)
    static let all: SchemaVocabularies = [.applicator, .unevaluated, .validation]

    /// The vocabularies by URI; the others of the standard dialect only annotate.
    static let byURI: [String: SchemaVocabularies] = [
        "https://json-schema.org/draft/2020-12/vocab/core": [],
        "https://json-schema.org/draft/2020-12/vocab/applicator": .applicator,
        "https://json-schema.org/draft/2020-12/vocab/unevaluated": .unevaluated,
        "https://json-schema.org/draft/2020-12/vocab/validation": .validation,
        "https://json-schema.org/draft/2020-12/vocab/meta-data": [],
        "https://json-schema.org/draft/2020-12/vocab/format-annotation": [],
        "https://json-schema.org/draft/2020-12/vocab/format-assertion": [],
        "https://json-schema.org/draft/2020-12/vocab/content": [],
    ]
}

/// How a schema resource is read: its draft and, for 2020-12, the vocabularies its metaschema enables.
struct SchemaDialect: Hashable, Sendable {
    let draft: JSONSchemaDraft
    let vocabularies: SchemaVocabularies

    /// A dialect of `draft` (2020-12: with `vocabularies`, all by default).
    init(_ draft: JSONSchemaDraft, vocabularies: SchemaVocabularies = .all) {
        self.draft = draft
        self.vocabularies = vocabularies
    }

    /// The draft a `$schema` value names when it is one of the standard metaschemas.
    static func standardDraft(_ uri: String) -> JSONSchemaDraft? {
        let bare = uri.hasSuffix("#") ? String(uri.dropLast()) : uri
        switch bare {
        case "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft/2020-12/schema": return .draft2020_12
        case "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema": return .draft7
        default: return nil
        }
    }
}

/// A schema resource: a subschema with its own base URI (a document root or a subschema with `$id`).
struct SchemaResource {
    let uri: String
    let location: SchemaLocation
    var anchors: [String: SchemaLocation] = [:]
    var dynamicAnchors: [String: SchemaLocation] = [:]
}

/// What scanning found for one subschema: its value, base URI, resource and dialect.
struct ScannedSchema {
    let value: JSONValue
    let base: URIReference
    let resource: Int
    let dialect: SchemaDialect
}

/// Finds the identifiers of schema documents (`$id`, `$anchor`, `$dynamicAnchor`, draft-07 `"$id": "#name"`)
/// and resolves references to locations, loading the documents references name.
struct SchemaRegistry {
    var documents: SchemaDocuments
    private(set) var resources: [SchemaResource] = []
    private var resourceByURI: [String: Int] = [:]
    private(set) var scanned: [SchemaLocation: ScannedSchema] = [:]

    /// The base URI of a schema compiled without one; references relative to it name nothing known.
    private static let anonymousDirectory = "runner:///"
    private static let anonymousRootURI = anonymousDirectory + "schema.json"

    /// A registry for one compilation; nothing is loaded yet.
    init(options: JSONSchema.Options) {
        documents = SchemaDocuments(options: options)
    }

    /// The value at a location (which scanning or resolution produced, so it exists).
    func value(at location: SchemaLocation) -> JSONValue {
        var value = documents.list[location.document].value
        for token in location.tokens {
            switch value {
            case .object(let object): value = object[token] ?? .null
            case .array(let elements): value = Int(token).flatMap { elements.indices.contains($0) ? elements[$0] : nil } ?? .null
            default: return .null
            }
        }
        return value
    }

    /// Adds and scans the schema being compiled; returns its root location.
    mutating func addRoot(_ value: JSONValue) throws(JSONSchemaError) -> SchemaLocation {
        let uri = documents.options.baseURI.map { URIReference($0).withoutFragment.description } ?? Self.anonymousRootURI
        let document = documents.addRoot(value, uri: uri)
        return try scanDocument(document)
    }

    /// Scans a newly loaded document from its root, registering it under its retrieval URI.
    private mutating func scanDocument(_ document: Int) throws(JSONSchemaError) -> SchemaLocation {
        let root = SchemaLocation(document: document, pointer: "")
        let uri = documents.list[document].uri
        let resource = newResource(uri: uri, at: root)
        try scan(value(at: root), at: root, base: URIReference(uri), resource: resource,
                 dialect: SchemaDialect(documents.options.defaultDraft))
        return root
    }

    /// The resource known by `uri`, registered at `location` the first time.
    private mutating func newResource(uri: String, at location: SchemaLocation) -> Int {
        if let known = resourceByURI[uri] { return known }
        resources.append(SchemaResource(uri: uri, location: location))
        resourceByURI[uri] = resources.count - 1
        return resources.count - 1
    }

    // MARK: Scanning

    /// Records `value` (a subschema at `location`) and the subschemas in it, with their base URIs and anchors.
    private mutating func scan(_ value: JSONValue, at location: SchemaLocation, base: URIReference, resource: Int,
                               dialect: SchemaDialect) throws(JSONSchemaError) {
        guard scanned[location] == nil else { return }
        guard case .object(let object) = value else {
            if case .bool = value {
                scanned[location] = ScannedSchema(value: value, base: base, resource: resource, dialect: dialect)
            }
            return
        }
        var base = base
        var resource = resource
        var dialect = dialect
        let isDocumentRoot = location.pointer.isEmpty
        let identifier: String? = if case .string(let id)? = object["$id"] { id } else { nil }
        if case .string(let declared)? = object["$schema"], isDocumentRoot || identifier != nil {
            dialect = try self.dialect(declared, base: base, at: location)
        } else if object["$schema"] != nil, isDocumentRoot, !object["$schema"]!.isString {
            throw error("$schema must be a URI string", at: location, keyword: "$schema")
        }
        // Draft-07 ignores every keyword beside $ref, $id included.
        let idApplies = dialect.draft == .draft2020_12 || object["$ref"] == nil
        var anchors: [(name: String, dynamic: Bool)] = []
        if let identifier, idApplies {
            let target = URIReference(identifier).resolved(against: base)
            if let fragment = target.fragment, !fragment.isEmpty {
                guard dialect.draft == .draft7 else {
                    throw error("$id '\(identifier)' has a fragment; name a location with $anchor instead",
                                at: location, keyword: "$id")
                }
                anchors.append((fragment, false))
            }
            let resourceURI = target.withoutFragment
            if resourceURI != base.withoutFragment {
                base = resourceURI
                if isDocumentRoot {
                    resourceByURI[resourceURI.description] = resourceByURI[resourceURI.description] ?? resource
                } else {
                    resource = newResource(uri: resourceURI.description, at: location)
                }
            }
        }
        if dialect.draft == .draft2020_12 {
            if case .string(let name)? = object["$anchor"] { anchors.append((name, false)) }
            if case .string(let name)? = object["$dynamicAnchor"] { anchors.append((name, true)) }
        }
        for anchor in anchors {
            if resources[resource].anchors[anchor.name] == nil { resources[resource].anchors[anchor.name] = location }
            if anchor.dynamic, resources[resource].dynamicAnchors[anchor.name] == nil {
                resources[resource].dynamicAnchors[anchor.name] = location
            }
        }
        scanned[location] = ScannedSchema(value: value, base: base, resource: resource, dialect: dialect)
        let shapes = dialect.draft == .draft7 ? Self.subschemaKeywords7 : Self.subschemaKeywords2020
        for keyword in object.keys {
            guard let shape = shapes[keyword] else { continue }
            let member = object[keyword]!
            let keywordLocation = location.appending(keyword)
            switch (shape, member) {
            case (.single, _), (.singleOrList, .object), (.singleOrList, .bool):
                try scan(member, at: keywordLocation, base: base, resource: resource, dialect: dialect)
            case (.list, .array(let elements)), (.singleOrList, .array(let elements)):
                for (index, element) in elements.enumerated() {
                    try scan(element, at: keywordLocation.appending(index), base: base, resource: resource, dialect: dialect)
                }
            case (.map, .object(let members)):
                for key in members.keys {
                    try scan(members[key]!, at: keywordLocation.appending(key), base: base, resource: resource,
                             dialect: dialect)
                }
            default: break
            }
        }
    }

    /// How a keyword holds subschemas.
    private enum SubschemaShape {
        case single, list, map, singleOrList
    }

    private static let subschemaKeywords2020: [String: SubschemaShape] = [
        "$defs": .map, "definitions": .map, "properties": .map, "patternProperties": .map,
        "dependentSchemas": .map, "additionalProperties": .single, "propertyNames": .single,
        "unevaluatedProperties": .single, "prefixItems": .list, "items": .single, "contains": .single,
        "unevaluatedItems": .single, "allOf": .list, "anyOf": .list, "oneOf": .list, "not": .single,
        "if": .single, "then": .single, "else": .single, "contentSchema": .single,
    ]

    private static let subschemaKeywords7: [String: SubschemaShape] = [
        "definitions": .map, "properties": .map, "patternProperties": .map, "dependencies": .map,
        "additionalProperties": .single, "propertyNames": .single, "items": .singleOrList,
        "additionalItems": .single, "contains": .single, "allOf": .list, "anyOf": .list, "oneOf": .list,
        "not": .single, "if": .single, "then": .single, "else": .single,
    ]

    // MARK: Dialects

    /// The dialect a `$schema` value declares: a standard draft, or a metaschema document whose own
    /// `$schema` is one and whose `$vocabulary` says which vocabularies apply.
    private mutating func dialect(_ declared: String, base: URIReference, at location: SchemaLocation,
                                  seen: Set<String> = []) throws(JSONSchemaError) -> SchemaDialect {
        if let draft = SchemaDialect.standardDraft(declared) { return SchemaDialect(draft) }
        let uri = URIReference(declared).resolved(against: base).withoutFragment.description
        let unknown = error("unknown $schema '\(declared)'; supported: "
                            + JSONSchemaDraft.allCases.map(\.rawValue).joined(separator: ", "),
                            at: location, keyword: "$schema")
        guard !seen.contains(uri), URIReference(declared).isAbsolute,
              let document = try documents.document(retrievedBy: uri),
              case .object(let metaschema) = documents.list[document].value,
              case .string(let metaDeclared)? = metaschema["$schema"] else { throw unknown }
        let metaDialect = try dialect(metaDeclared, base: URIReference(uri), at: location, seen: seen.union([uri]))
        guard case .object(let vocabularies)? = metaschema["$vocabulary"] else { return metaDialect }
        var enabled: SchemaVocabularies = []
        for vocabulary in vocabularies.keys {
            if let known = SchemaVocabularies.byURI[vocabulary] {
                enabled.formUnion(known)
            } else if vocabularies[vocabulary] == .bool(true) {
                throw error("$schema '\(declared)' requires the vocabulary '\(vocabulary)', which is not supported",
                            at: location, keyword: "$schema")
            }
        }
        return SchemaDialect(metaDialect.draft, vocabularies: enabled)
    }

    // MARK: Resolving

    /// The location a `$ref`/`$dynamicRef` value names, relative to the subschema at `location`; loads the
    /// document it names when needed. Throws a located error when it does not resolve.
    mutating func resolve(_ reference: String, from location: SchemaLocation, keyword: String) throws(JSONSchemaError)
        -> SchemaLocation {
        let base = scanned[location]?.base ?? URIReference(documents.list[location.document].uri)
        let target = URIReference(reference).resolved(against: base)
        let uri = target.withoutFragment.description
        guard let resourceIndex = try resource(for: uri, reference: reference, from: location, keyword: keyword) else {
            let shown = uri.hasPrefix(Self.anonymousDirectory) ? String(uri.dropFirst(Self.anonymousDirectory.count)) : uri
            throw error("$ref '\(reference)' does not resolve: no schema is known as '\(shown)'", at: location, keyword: keyword)
        }
        let resource = resources[resourceIndex]
        let fragment = target.fragment.map(URIReference.percentDecoded) ?? ""
        if fragment.isEmpty { return resource.location }
        if fragment.hasPrefix("/") {
            guard let found = try pointerTarget(fragment, in: resource) else {
                throw error("$ref '\(reference)' does not resolve: nothing at '\(fragment)'", at: location, keyword: keyword)
            }
            return found
        }
        guard let anchored = resource.anchors[fragment] else {
            throw error("$ref '\(reference)' does not resolve: no anchor '\(fragment)' in '\(resource.uri)'",
                        at: location, keyword: keyword)
        }
        return anchored
    }

    /// The resource known by `uri`, loading and scanning the document it names the first time.
    private mutating func resource(for uri: String, reference: String, from location: SchemaLocation,
                                   keyword: String) throws(JSONSchemaError) -> Int? {
        if let known = resourceByURI[uri] { return known }
        let parsed = URIReference(uri)
        if let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
           JSONSchemaMetaschemas.texts[uri] == nil, documents.options.documents[uri] == nil {
            throw error("$ref '\(reference)' names a network URL, and nothing is fetched", at: location, keyword: keyword,
                        suggestion: "save the schema as a file beside this one and refer to it by a relative path")
        }
        if let path = SchemaDocuments.filePath(of: parsed), documents.options.readsLocalFiles,
           documents.options.documents[uri] == nil, !FileManager.default.isReadableFile(atPath: path) {
            throw error("$ref '\(reference)' names the file '\(path)', which cannot be read", at: location, keyword: keyword)
        }
        guard let document = try documents.document(retrievedBy: uri) else { return nil }
        _ = try scanDocument(document)
        return resourceByURI[uri]
    }

    /// The location of an RFC 6901 pointer (a decoded fragment) inside a resource, scanning it when no
    /// keyword scanned before leads there (a pointer into an unknown keyword).
    private mutating func pointerTarget(_ pointer: String, in resource: SchemaResource) throws(JSONSchemaError)
        -> SchemaLocation? {
        var location = resource.location
        var value = value(at: location)
        var nearest = scanned[location]!
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            if let known = scanned[location] {
                nearest = known
            } else if case .object(let object) = value, case .string(let id)? = object["$id"] {
                // A subschema no keyword leads to (under an unknown keyword) may still change the base URI.
                nearest = ScannedSchema(value: value, base: URIReference(id).resolved(against: nearest.base).withoutFragment,
                                        resource: nearest.resource, dialect: nearest.dialect)
            }
            let name = SchemaLocation.unescape(String(token))
            switch value {
            case .object(let object):
                guard let member = object[name] else { return nil }
                value = member
            case .array(let elements):
                guard let index = Int(name), elements.indices.contains(index) else { return nil }
                value = elements[index]
            default:
                return nil
            }
            location = location.appending(name)
        }
        if scanned[location] == nil {
            try scan(value, at: location, base: nearest.base, resource: nearest.resource, dialect: nearest.dialect)
        }
        return location
    }

    // MARK: Errors

    /// A compile error at `keyword` of the subschema at `location`.
    func error(_ message: String, at location: SchemaLocation, keyword: String? = nil,
               suggestion: String? = nil) -> JSONSchemaError {
        let document = documents.list[location.document]
        let pointer = location.pointer + (keyword.map { "/" + SchemaLocation.escape($0) } ?? "")
        let prefix = location.document == 0 || document.filePath != nil ? "" : document.uri
        return JSONSchemaError(message: message, schemaPath: prefix + "#" + pointer,
                               otherFile: location.document == 0 ? nil : document.filePath, suggestion: suggestion)
    }
}

extension JSONValue {
    /// Whether the value is a string.
    var isString: Bool {
        if case .string = self { true } else { false }
    }
}
