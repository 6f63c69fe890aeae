import Foundation
import NIOSSL
import SelfSignedCertificate
import Testing
@testable import Loaders

/// A certificate names the URL's host, not the address the socket reached (a proxy's, through one).
@Suite struct CertificateIdentityTests {
    typealias Names = CertificateIdentity.Names

    @Test func aHostNameMustBeOneOfTheDNSNames() {
        let names = Names(dnsNames: ["api.example.com", "*.svc.example.com", "*.com", "xn--bcher-kva.example"], addresses: [[127, 0, 0, 1]],
                          hasAlternativeNames: true, commonName: "localhost")
        #expect(CertificateIdentity.isNamed("api.example.com", in: names))
        #expect(CertificateIdentity.isNamed("API.Example.com.", in: names))
        #expect(CertificateIdentity.isNamed("one.svc.example.com", in: names))
        // A wildcard is one whole label, never the last two.
        #expect(!CertificateIdentity.isNamed("a.b.svc.example.com", in: names))
        #expect(!CertificateIdentity.isNamed("svc.example.com", in: names))
        #expect(!CertificateIdentity.isNamed("example.com", in: names))
        #expect(CertificateIdentity.isNamed("xn--bcher-kva.example", in: names))
        // An address of the certificate does not stand for a name that resolves to it, nor does the common name count
        // beside alternative names.
        #expect(!CertificateIdentity.isNamed("localhost", in: names))
        // Without alternative names, the common name does, for a name only.
        #expect(CertificateIdentity.isNamed("localhost", in: Names(commonName: "localhost")))
        #expect(!CertificateIdentity.isNamed("127.0.0.1", in: Names(commonName: "127.0.0.1")))
    }

    @Test func anAddressMustBeOneOfTheAddresses() {
        let loopback6 = [UInt8](repeating: 0, count: 15) + [1]
        let names = Names(dnsNames: ["127.0.0.2"], addresses: [[127, 0, 0, 1], loopback6], hasAlternativeNames: true)
        #expect(CertificateIdentity.isNamed("127.0.0.1", in: names))
        // IPv4 in the forms the resolver reads.
        #expect(CertificateIdentity.isNamed("127.1", in: names) && CertificateIdentity.isNamed("0x7f000001", in: names))
        #expect(CertificateIdentity.isNamed("[::1]", in: names) && CertificateIdentity.isNamed("::1", in: names))
        // A DNS name written like an address is no address.
        #expect(!CertificateIdentity.isNamed("127.0.0.2", in: names))
    }

    @Test func theNamesAreReadFromTheCertificate() throws {
        let authority = try TestCertificateAuthority.generate()
        let identity = try authority.issueServerIdentity(dnsNames: ["localhost", "*.test"], ipAddresses: [[127, 0, 0, 1]])
        let certificate = try NIOSSLCertificate(bytes: Array(identity.certificatePEM.utf8), format: .pem)
        #expect(certificate.identityNames == Names(dnsNames: ["localhost", "*.test"], addresses: [[127, 0, 0, 1]],
                                                   hasAlternativeNames: true, commonName: "localhost"))
        let authorityCertificate = try NIOSSLCertificate(bytes: Array(authority.certificatePEM.utf8), format: .pem)
        #expect(authorityCertificate.identityNames == Names(commonName: "runner test CA"))
    }
}
