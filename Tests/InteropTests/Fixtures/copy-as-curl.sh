# Commands as browsers' "Copy as cURL" and API docs write them, one request each.

# 1. Chrome, Copy as cURL (bash): a JSON POST with a bearer token and cookies
curl 'https://app.example.com/api/v1/users?page=2&tag=a&tag=b' \
  -H 'accept: application/json, text/plain, */*' \
  -H 'accept-language: en-GB,en;q=0.9' \
  -H 'authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbg' \
  -H 'content-type: application/json' \
  -b 'session=abc123; theme=dark' \
  -H 'origin: https://app.example.com' \
  -H 'referer: https://app.example.com/users' \
  -H 'sec-ch-ua: "Chromium";v="122", "Not(A:Brand";v="24", "Google Chrome";v="122"' \
  -H 'sec-ch-ua-mobile: ?0' \
  -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36' \
  --data-raw '{"name":"Arthur","quota":10,"admin":false,"tags":["a","b"],"manager":null}'

# 2. Chrome with a quote in the body: $'…' quoting
curl 'https://app.example.com/api/v1/notes' \
  -H 'content-type: application/json' \
  --data-raw $'{"text":"it\'s done\\nreally","emoji":"\u00e9"}' \
  --compressed

# 3. Firefox, Copy as cURL (POSIX): a login form on one line
curl 'https://app.example.com/login' -X POST -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0' -H 'Accept: */*' -H 'Accept-Language: en-US,en;q=0.5' -H 'Accept-Encoding: gzip, deflate, br' -H 'Content-Type: application/x-www-form-urlencoded' -H 'Origin: https://app.example.com' -H 'Connection: keep-alive' -H 'Cookie: sid=xyz789' -H 'Sec-Fetch-Dest: empty' --data-raw 'username=arthur&password=p%40ss+word&remember=on'

# 4. Firefox, a GET
curl 'https://app.example.com/api/v1/search?q=hello%20world&limit=10' --compressed -H 'User-Agent: Mozilla/5.0 Firefox/123.0' -H 'Accept: application/json' -H 'DNT: 1'

# 5. Payment docs: basic auth with -u and form data with -d
curl -X POST https://api.example.com/v1/charges \
  -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: \
  -d amount=2000 \
  -d currency=usd \
  -d "description=My First Test Charge (created for API docs)"

# 6. GitHub docs: -L, double quotes
curl -L \
  -H "Accept: application/vnd.github+json" \
  -H "Authorization: Bearer ghp_exampletoken1234567890" \
  -H "X-GitHub-Api-Version: 2022-11-28" \
  https://api.github.com/repos/OWNER/REPO/issues

# 7. Multipart upload with -F
curl -F 'avatar=@photo.png;type=image/png' -F 'note=hello there' --form-string 'raw=@not-a-file' https://api.example.com/uploads

# 8. --json (curl 7.82)
curl --json '{"event":"deploy","ok":true}' https://hooks.example.com/events

# 9. -G: data into the query
curl -G https://api.example.com/search --data-urlencode 'q=café & bar' -d limit=5

# 10. HEAD, insecure, a timeout and a proxy, grouped short options
curl -sSIk --max-time 2.5 -x proxy.internal:3128 https://self-signed.example.com/health

# 11. A PUT with an XML body
curl -X PUT "https://api.example.com/v1/items/42" -H "Content-Type: application/xml" --data-binary "<item><name>Lamp</name></item>"

# 12. Windows cmd continuation, --url, -A and -e
curl --url "https://api.example.com/v1/ping" ^
  -A "runner-import-test" ^
  -e "https://docs.example.com/"

# 13. A JSON body without a content type, output options that have no equivalent
curl https://api.example.com/v1/batch -d '[{"id":1},{"id":2}]' -o out.json --limit-rate 100K -w '%{http_code}'

# 14. Basic credentials in an Authorization header, and a DELETE
curl -X DELETE 'https://api.example.com/v1/users/7' -H 'Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l'
