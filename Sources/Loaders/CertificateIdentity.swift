internal import Foundation
internal import NIOCore
internal import NIOSSL
internal import SwiftASN1

/// Whether a server's certificate names the host of the URL a request was sent to (RFC 6125, section 6), checked once a
/// verified TLS connection is made, beside NIOSSL's own check.
///
/// NIOSSL matches a certificate's IP addresses against the address the socket connected to, whatever the URL's host: a
/// certificate listing only `127.0.0.1` passed for `https://localhost`, and, through a proxy, one listing the proxy's
/// address passed for any host behind it. Here a host name must be one of the certificate's DNS names (a `*` standing
/// for the whole first label) and an IP address one of its IP addresses. A certificate without alternative names is
/// left to NIOSSL, which matches its common name against host names only.
enum CertificateIdentity {
    /// The check of a new connection's certificate against `host`: it fails with NIOSSL's hostname error (whose message
    /// says the certificate was issued for another host name) when the certificate does not name it.
    static func check(_ channel: any Channel, host: String) -> EventLoopFuture<Void> {
        channel.nioSSL_peerCertificate().flatMapThrowing { certificate in
            guard let certificate, let names = certificate.alternativeNames, !isNamed(host, in: names) else { return }
            throw NIOSSLExtraError.failedToValidateHostname
        }
    }

    /// Whether `host` (as in a URL: a name, an IPv4 address, or an IPv6 one with or without brackets) is among `names`.
    static func isNamed(_ host: String, in names: AlternativeNames) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let address = address(bare) { return names.addresses.contains(address) }
        let name = normalized(bare)
        return names.dnsNames.contains { matches(normalized($0), name) }
    }

    /// The DNS names and IP addresses (4 or 16 bytes) of a certificate's subject alternative names.
    struct AlternativeNames: Equatable {
        var dnsNames: [String] = []
        var addresses: [[UInt8]] = []
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

    /// The bytes of an IPv4 or IPv6 address written as text; nil for a name.
    private static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

extension NIOSSLCertificate {
    /// The certificate's subject alternative names; nil when it has none or they cannot be read.
    var alternativeNames: CertificateIdentity.AlternativeNames? {
        // Certificate: SEQUENCE { tbsCertificate SEQUENCE { ..., [3] EXPLICIT Extensions }, ... }; Extension: SEQUENCE
        // { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }; subjectAltName (2.5.29.17) holds GeneralNames:
        // SEQUENCE OF { [2] dNSName IA5String, [7] iPAddress OCTET STRING, ... } (RFC 5280, sections 4.1 and 4.2.1.6).
        guard let der = try? toDERBytes(), let certificate = try? DER.parse(der), case .constructed(let parts) = certificate.content,
              let signed = parts.first(where: { _ in true }), case .constructed(let fields) = signed.content,
              let tagged = fields.first(where: { $0.identifier == ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific) }),
              case .constructed(let wrapper) = tagged.content, let list = wrapper.first(where: { _ in true }),
              case .constructed(let extensions) = list.content else { return nil }
        let subjectAlternativeName: ASN1ObjectIdentifier = [2, 5, 29, 17]
        for item in extensions {
            guard case .constructed(let members) = item.content, let first = members.first(where: { _ in true }),
                  (try? ASN1ObjectIdentifier(derEncoded: first)) == subjectAlternativeName,
                  let value = Array(members).last, case .primitive(let bytes) = value.content,
                  let general = try? DER.parse(Array(bytes)), case .constructed(let entries) = general.content else { continue }
            var names = CertificateIdentity.AlternativeNames()
            for entry in entries where entry.identifier.tagClass == .contextSpecific {
                guard case .primitive(let content) = entry.content else { continue }
                switch entry.identifier.tagNumber {
                case 2: names.dnsNames.append(String(decoding: content, as: UTF8.self))
                case 7: names.addresses.append(Array(content))
                default: continue
                }
            }
            return names
        }
        return nil
    }
}
