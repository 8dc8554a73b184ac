<?php
// The vendor's signature pseudocode (generateSignature → sortArray → implodeArray), as integrators port
// it, run by real PHP over parameters read as PHP reads them. Tests feed it cases, one JSON line each:
//   {"parts": [{"type": "query"|"form"|"json"|"pairs", "text": "…", "values": {…}}, …],
//    "drop": ["client"], "secret": "…"}
// parts are merged in order with array_replace (query, then path, then body); it prints, per case,
//   {"canonical": base64 of the canonical string, "sign": "…hex…", "params": base64 of var_export}.

const EXCLUDED = ['clientId', 'access-token', 'action', 'auth', 'channel', 'controller', 'locale', 'method',
    'module', 'sign', 'version', 'per-page', 'page', 'sort'];

function generateSignature(array $params, string $secret): array
{
    foreach ($params as $key => $value) {
        if (is_string($value)) {
            $decoded = json_decode($value, true);
            if (is_array($decoded)) {
                $params[$key] = $decoded;
            }
        }
    }
    foreach (EXCLUDED as $key) {
        unset($params[$key]);
    }
    $canonical = implodeArray(sortArray($params));
    return [$canonical, hash('sha256', $canonical . $secret)];
}

function sortArray(array $array): array
{
    ksort($array);
    foreach ($array as $key => $value) {
        if (is_array($value)) {
            $array[$key] = sortArray($value);
        }
    }
    return $array;
}

function implodeArray(array $array): string
{
    $text = '';
    foreach ($array as $value) {
        $text .= is_array($value) ? implodeArray($value) : (string) $value;
    }
    return $text;
}

function readPart(array $part): array
{
    switch ($part['type']) {
        case 'query':
        case 'form':
            parse_str($part['text'], $read);
            return $read;
        case 'json':
            $read = json_decode($part['text'], true);
            return is_array($read) ? $read : [];
        default:
            return $part['values'];
    }
}

while (($line = fgets(STDIN)) !== false) {
    $case = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
    $params = [];
    foreach ($case['parts'] as $part) {
        $params = array_replace($params, readPart($part));
    }
    foreach ($case['drop'] ?? [] as $key) {
        unset($params[$key]);
    }
    [$canonical, $sign] = generateSignature($params, $case['secret']);
    echo json_encode(['canonical' => base64_encode($canonical), 'sign' => $sign]), "\n";
}
