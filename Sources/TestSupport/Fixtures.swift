/// Fixed documents served by `/json/{name}`, `/xml/{name}`, `/text` and `/html`, for expectation tests.
enum Fixtures {
    /// JSON documents by name: `users`, `user`, `empty`, `types`, `nested`.
    static let json: [String: String] = [
        "users": """
        {"count":3,"users":[\
        {"id":1,"name":"Ada Lovelace","email":"ada@example.com","active":true,\
        "address":{"city":"London","zip":"N1"},"roles":["admin","dev"]},\
        {"id":2,"name":"Alan Turing","email":"alan@example.com","active":false,\
        "address":{"city":"Manchester","zip":"M13"},"roles":["dev"]},\
        {"id":3,"name":"Grace Hopper","email":"grace@example.com","active":true,\
        "address":{"city":"New York","zip":"10001"},"roles":[]}]}
        """,
        "user": """
        {"id":1,"name":"Ada Lovelace","email":"ada@example.com","active":true,\
        "address":{"city":"London","zip":"N1"},"roles":["admin","dev"],"manager":null}
        """,
        "empty": "[]",
        "types": """
        {"string":"text","integer":42,"number":3.5,"negative":-7,"true":true,"false":false,\
        "null":null,"array":[1,"two",3.0],"object":{"key":"value"},"unicode":"caf\\u00e9 \\u2713"}
        """,
        "nested": """
        {"order":{"id":"A-100","items":[{"sku":"X1","qty":2,"price":9.99},\
        {"sku":"Y2","qty":1,"price":24.5}],"customer":{"id":7,"tags":["vip","eu"]}}}
        """,
    ]

    /// XML documents by name: `slides` (no namespaces) and `feed` (Atom as the default namespace, and a `d:` prefix).
    static let xml: [String: String] = [
        "slides": """
        <?xml version="1.0" encoding="utf-8"?>
        <slideshow title="Sample Slide Show" date="Date of publication" author="Yours Truly">
          <slide type="all"><title>Wake up to WonderWidgets!</title></slide>
          <slide type="all"><title>Overview</title><item>Why <em>WonderWidgets</em> are great</item></slide>
        </slideshow>

        """,
        "feed": """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:d="urn:example:demo">
          <title>Users</title>
          <entry><id>urn:user:1</id><title>ada</title><d:age>36</d:age></entry>
          <entry><id>urn:user:2</id><title>alan</title><d:age>41</d:age></entry>
        </feed>

        """,
    ]

    /// HTML as browsers accept it: upper-case tags, unclosed paragraphs and inputs, bare attribute values, `&nbsp;`.
    static let looseHTML = """
    <!DOCTYPE html>
    <HTML><head><title>Orders</title>
    <body><H1>Your&nbsp;orders</H1>
    <p>First order<p>Second order
    <form action=/checkout><input type=hidden name=token value=t-42><input name=coupon></form>

    """

    /// An HTML page with a CSRF token in a hidden input.
    static let html = """
    <!DOCTYPE html>
    <html><head><title>Login</title></head>
    <body><form method="post" action="/echo">
    <input type="hidden" name="csrf" value="abc123">
    <input name="user"><button type="submit">Sign in</button>
    </form></body></html>

    """
}
