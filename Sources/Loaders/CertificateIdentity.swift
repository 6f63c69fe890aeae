internal import Foundation
internal import NIOCore
internal import NIOSSL
internal import SwiftASN1

/// Whether a server's certificate names the host of the URL a request was sent to (RFC 6125, section 6), checked once a
/// verified TLS connection is made, in place of NIOSSL's own check (its hostname verification is off).
///
/// NIOSSL matches a certificate's IP addresses against the address the socket connected to, whatever the URL's host: a
/// certificate listing only `127.0.0.1` passed for `https://localhost`, and, through a proxy, one listing the proxy's
/// address passed for any host behind it, while a right one for an address behind the proxy failed. Here a host name
/// must be one of the certificate's DNS names (a `*` standing for the whole first label), or its subject's common name
/// when it has no alternative names (as curl and NIOSSL accept), and an IP address one of its IP addresses.
enum CertificateIdentity {
    /// The check of a new connection's certificate against `host`: it fails with NIOSSL's hostname error (whose message
    /// says the certificate was issued for another host name) when the certificate does not name it, or cannot be read,
    /// and closes the connection then (AsyncHTTPClient leaves a connection whose set-up failed open).
    static func check(_ channel: any Channel, host: String) -> EventLoopFuture<Void> {
        channel.nioSSL_peerCertificate().flatMapThrowing { certificate in
            guard let names = certificate?.identityNames, isNamed(host, in: names) else {
                throw NIOSSLExtraError.failedToValidateHostname
            }
        }.flatMapError { error in
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    /// Whether `host` (as in a URL: a name, an IPv4 address in any form `inet_aton` reads, such as `127.1`, or an IPv6
    /// one with or without brackets) is among `names`.
    static func isNamed(_ host: String, in names: Names) -> Bool {
        let bare = unbracketed(host)
        if let address = address(bare) { return names.addresses.contains(address) }
        let name = normalized(bare)
        let candidates = names.hasAlternativeNames ? names.dnsNames : names.commonName.map { [$0] } ?? []
        return candidates.contains { matches(normalized($0), name) }
    }

    /// Whether `host` (as in a URL, an IPv6 address with or without brackets) is an IP address, which a certificate must
    /// list among its addresses, not a name.
    static func isAddress(_ host: String) -> Bool {
        address(unbracketed(host)) != nil
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// What a certificate is issued for: its subject alternative names (DNS names, IP addresses of 4 or 16 bytes) and its
    /// subject's common name (the last, most significant one), which counts only without alternative names.
    struct Names: Equatable {
        var dnsNames: [String] = []
        var addresses: [[UInt8]] = []
        var hasAlternativeNames = false
        var commonName: String?
    }

    /// Whether the DNS name `pattern` of a certificate stands for `name` (both lower case, without a final dot): the
    /// same, or a wildcard `*.rest` for a name of one more label before `rest`, where `rest` has two labels or more.
    private static func matches(_ pattern: String, _ name: String) -> Bool {
        if pattern == name { return true }
        guard pattern.hasPrefix("*."), let dot = name.firstIndex(of: "."), dot != name.startIndex else { return false }
        let rest = pattern.dropFirst(2)
        return rest.contains(".") && name[name.index(after: dot)...] == rest
    }

    /// A DNS name compared as RFC 6125 says: ASCII letters in lower case, a final dot left out.
    private static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    /// The bytes of an IPv4 or IPv6 address written as text; nil for a name. IPv4 as `inet_aton` reads it, as the
    /// resolver does (`127.1`, `0x7f000001`), a name of digits and dots only never being a DNS name.
    private static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_aton(text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

extension NIOSSLCertificate {
    /// What the certificate is issued for; nil when it cannot be read.
    var identityNames: CertificateIdentity.Names? {
        // Certificate: SEQUENCE { tbsCertificate SEQUENCE { [0] version?, serialNumber, signature, issuer, validity,
        // subject, subjectPublicKeyInfo, [1]?, [2]?, [3] EXPLICIT Extensions? }, ... }; Extension: SEQUENCE { extnID,
        // critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }; subjectAltName (2.5.29.17) holds GeneralNames: SEQUENCE
        // OF { [2] dNSName IA5String, [7] iPAddress OCTET STRING, ... } (RFC 5280, sections 4.1 and 4.2.1.6).
        guard let der = try? toDERBytes(), let certificate = try? DER.parse(der), case .constructed(let parts) = certificate.content,
              let signed = parts.first(where: { _ in true }), case .constructed(let fields) = signed.content else { return nil }
        let items = Array(fields).drop { $0.identifier.tagClass == .contextSpecific }
        guard items.count >= 6 else { return nil }
        var names = CertificateIdentity.Names()
        names.commonName = Self.commonName(in: items[items.startIndex + 4])
        guard let tagged = items.first(where: { $0.identifier == ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific) }) else {
            return names
        }
        guard case .constructed(let wrapper) = tagged.content, let list = wrapper.first(where: { _ in true }),
              case .constructed(let extensions) = list.content else { return nil }
        let subjectAlternativeName: ASN1ObjectIdentifier = [2, 5, 29, 17]
        for item in extensions {
            guard case .constructed(let members) = item.content, let first = members.first(where: { _ in true }),
                  (try? ASN1ObjectIdentifier(derEncoded: first)) == subjectAlternativeName else { continue }
            guard let value = Array(members).last, case .primitive(let bytes) = value.content,
                  let general = try? DER.parse(Array(bytes)), case .constructed(let entries) = general.content else { return nil }
            names.hasAlternativeNames = true
            for entry in entries where entry.identifier.tagClass == .contextSpecific {
                guard case .primitive(let content) = entry.content else { continue }
                switch entry.identifier.tagNumber {
                case 2: names.dnsNames.append(String(decoding: content, as: UTF8.self))
                case 7: names.addresses.append(Array(content))
                default: continue
                }
            }
        }
        return names
    }

    /// The last common name (2.5.4.3) of a Name: SEQUENCE OF SET OF SEQUENCE { type, value } (RFC 5280, section 4.1.2.4).
    private static func commonName(in name: ASN1Node) -> String? {
        let commonName: ASN1ObjectIdentifier = [2, 5, 4, 3]
        guard case .constructed(let sets) = name.content else { return nil }
        var found: String?
        for set in sets {
            guard case .constructed(let attributes) = set.content else { continue }
            for attribute in attributes {
                guard case .constructed(let pair) = attribute.content, let type = pair.first(where: { _ in true }),
                      (try? ASN1ObjectIdentifier(derEncoded: type)) == commonName, let value = Array(pair).last,
                      case .primitive(let bytes) = value.content else { continue }
                found = String(decoding: bytes, as: UTF8.self)
            }
        }
        return found
    }
}
