/// Fixed documents served by `/json/{name}` and `/text`, for expectation tests.
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
