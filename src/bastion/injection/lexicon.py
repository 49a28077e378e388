"""Small per-language word lists for the injection signals (``signals.py``): who is
addressed, what is asked for, and the pressure around it.

Why per concept and not per phrase: an attacker writes "send the API keys to …" in any
word order and any language; a signal built from *a verb of sending* near *a secret*
follows that, where a phrase table only knows the sentences it was shown. Each entry is
RE2 alternation text. Latin-script entries are matched case-insensitively with ASCII word
boundaries at their start; entries for Russian, Chinese, Japanese and Korean go into a set
the scanner skips for pure-ASCII text (``NON_LATIN``).

Languages: en (in ``signals.py`` itself), de, fr, es, pt, it, ru, zh, ja, ko.
"""

from __future__ import annotations

__all__ = ["WORDS", "NON_LATIN", "LANGUAGES"]

#: ``concept -> language -> alternation``. Concepts: ``addressee`` (an AI named as the
#: reader), ``run`` (verbs of running a command), ``send`` (verbs of sending or uploading),
#: ``secret`` (secret objects), ``conceal`` (keeping it from the user), ``override``
#: (dropping earlier instructions), ``urgency``, ``money`` (payments).
WORDS: dict[str, dict[str, str]] = {
    "addressee": {
        "de": r"KI-(?:Assistent|Agent|Modell)\w*|an\s+den\s+(?:Agenten|Assistenten)|Hinweis\s+f[üu]r\s+(?:den|die)\s+KI",
        "fr": r"assistant\s+(?:IA|d['’]IA)|(?:note|message)\s+pour\s+l['’](?:assistant|agent|IA)|agent\s+IA|(?:^|\n)\s*agent\s*:",
        "es": r"asistente\s+de\s+IA|para\s+el\s+(?:agente|asistente)|(?:^|\n)\s*agente\s*:",
        "pt": r"assistente\s+de\s+IA|para\s+o\s+(?:agente|assistente)|(?:^|\n)\s*agente\s*:",
        "it": r"assistente\s+(?:IA|AI)|per\s+l['’](?:agente|assistente)|(?:^|\n)\s*agente\s*:",
        "ru": r"[Аа]ссистент|[Аа]гент(?:у|ам)?\b|ИИ-|нейросет",
        "zh": r"AI\s*助手|智能体|智能體|人工智能助手|给(?:AI|助手|智能体)",
        "ja": r"AI\s*アシスタント|エージェントへ|アシスタントへ|AIへ",
        "ko": r"AI\s*어시스턴트|어시스턴트에게|에이전트에게|AI\s*에게",
    },
    "run": {
        "de": r"f[üu]hre\b[^\n.]*\baus\b|ausf[üu]hren|starte\s+(?:den|das|die)\s+(?:Befehl|Skript)",
        "fr": r"ex[ée]cute(?:z|r)?\b|lance(?:z)?\s+(?:la|le|cette|ce)\s+(?:commande|script)",
        "es": r"ejecuta(?:r)?\b|corre\s+(?:el|este)\s+(?:comando|script)",
        "pt": r"execute\b|executar\b|rode\s+(?:o|este)\s+(?:comando|script)",
        "it": r"esegui(?:re)?\b|lancia\s+(?:il|questo)\s+(?:comando|script)",
        "ru": r"выполни(?:те)?\b|запусти(?:те)?\b",
        "zh": r"执行|執行|运行|運行",
        "ja": r"実行して|実行しろ|を実行",
        "ko": r"실행하|실행해",
    },
    "send": {
        "de": r"sende\b|schicke\b|[üu]bermittle\b|lade\b[^\n.]*\bhoch\b|hochladen",
        "fr": r"envoie(?:z)?\b|envoyer\b|t[ée]l[ée]verse(?:z)?\b|transmets\b|transmettez\b",
        "es": r"env[ií]a(?:r)?\b|sube\b|manda(?:r)?\b|reenv[ií]a\b",
        "pt": r"envie\b|enviar\b|mande\b|carregue\b|encaminhe\b",
        "it": r"invia(?:re)?\b|carica(?:re)?\b|manda(?:re)?\b|inoltra\b",
        "ru": r"отправ(?:ь|ьте|ить)|загрузи(?:те)?|перешли(?:те)?",
        "zh": r"发送|發送|上传|上傳|发给|發給|发到|發到",
        "ja": r"送信|アップロード|送って",
        "ko": r"보내|업로드|전송",
    },
    "secret": {
        "de": r"Zugangsdaten|Passw(?:o|ö)rt(?:er)?|API-Schl[üu]ssel|Schl[üu]ssel|Anmeldedaten",
        "fr": r"cl[ée]s?\s+(?:API|priv[ée]es?|SSH)|mot\s+de\s+passe|identifiants",
        "es": r"credenciales|contrase[ñn]as?|claves?\s+(?:de\s+)?(?:API|privadas?|SSH)",
        "pt": r"credenciais|senhas?|chaves?\s+(?:de\s+)?(?:API|privadas?|SSH)",
        "it": r"credenziali|password|chiav[ei]\s+(?:API|private|SSH)",
        "ru": r"парол|ключ|учётн|учетн|токен",
        "zh": r"密钥|密鑰|密码|密碼|凭据|憑據|令牌",
        "ja": r"APIキー|パスワード|認証情報|秘密鍵|トークン",
        "ko": r"API\s*키|비밀번호|자격\s*증명|토큰",
    },
    "conceal": {
        "de": r"sag(?:e)?\s+(?:dem\s+)?(?:Benutzer|Nutzer)\w*\s+nichts|ohne\s+(?:den|die)\s+(?:Benutzer|Nutzer)\w*\s+zu\s+informieren|(?:Benutzer|Nutzer)\w*\s+nichts\s+davon",
        "fr": r"sans\s+(?:en\s+)?parler\s+[àa]\s+l['’]utilisateur|ne\s+(?:le\s+)?dis\s+(?:rien|pas)",
        "es": r"no\s+se\s+lo\s+digas|sin\s+dec[ií]rselo|no\s+(?:le\s+)?digas\s+nada",
        "pt": r"n[ãa]o\s+conte\s+(?:ao|para\s+o)\s+usu[áa]rio|sem\s+avisar",
        "it": r"non\s+dirlo|senza\s+dirlo|non\s+dire\s+nulla",
        "ru": r"не\s+говори|не\s+сообщай|ничего\s+не\s+говори",
        "zh": r"不要告诉|不要告訴|别告诉|別告訴|不要通知",
        "ja": r"伝えないで|言わないで|知らせないで",
        "ko": r"알리지\s*마|말하지\s*마",
    },
    "override": {
        "de": r"(?:ignoriere|vergiss|missachte)\s+(?:\w+\s+){0,3}?(?:Anweisungen|Instruktionen|Regeln|Vorgaben)|vorherigen\s+Anweisungen",
        "fr": r"ignore(?:z)?\s+(?:les|tes|vos)\s+(?:instructions|consignes)|oublie(?:z)?\s+(?:tout|les)",
        "es": r"ignora(?:d)?\s+(?:las|tus|todas)|olvida\s+(?:las|tus|todo)",
        "pt": r"ignore\s+(?:as|suas|todas)|esque[çc]a\s+(?:as|tudo)",
        "it": r"ignora\s+(?:le|tutte)|dimentica\s+(?:le|tutto)",
        "ru": r"игнорируй|проигнорируй|забудь",
        "zh": r"(?:忽略|忽视|忽視|無視|无视|忘记|忘記)(?:掉)?(?:你的|之前|以前|先前|上面|上述|前面|所有|全部|一切|以上|的|了){1,5}(?:指令|指示|说明|說明|规则|規則|提示|要求|设定|設定)",
        "ja": r"(?:指示|命令|ルール|プロンプト)を(?:全て|すべて)?(?:無視|忘れ)",
        "ko": r"(?:지시|명령|지침|규칙)\S*\s*(?:모두\s*)?무시",
    },
    "urgency": {
        "de": r"dringend|sofort|umgehend",
        "fr": r"urgent|imm[ée]diatement",
        "es": r"urgente|inmediatamente",
        "pt": r"urgente|imediatamente",
        "it": r"urgente|subito|immediatamente",
        "ru": r"срочно|немедленно",
        "zh": r"紧急|緊急|立即|马上|馬上",
        "ja": r"緊急|直ちに|すぐに",
        "ko": r"긴급|즉시",
    },
    "money": {
        "de": r"[üu]berweise\b|[üu]berweisung",
        "fr": r"vire(?:z)?\s+\d|virement",
        "es": r"transfiere\b|transferencia",
        "pt": r"transfira\b|transfer[êe]ncia",
        "it": r"bonifico|trasferisci\b",
        "ru": r"перевед(?:и|ите)|перевод\s+денег",
        "zh": r"转账|轉賬|汇款|匯款",
        "ja": r"送金|振り込",
        "ko": r"송금|이체",
    },
}

#: Languages whose words cannot occur in pure-ASCII text.
NON_LATIN = frozenset({"ru", "zh", "ja", "ko"})
LANGUAGES = ("en", "de", "fr", "es", "pt", "it", "ru", "zh", "ja", "ko")


#: What must follow a concept's word in the same sentence for it to count: running needs a
#: command (in backquotes), sending needs a destination (a URL or an address). "Ejecuta las
#: pruebas" and "envía un pull request" are ordinary; "ejecuta `curl …`" is not.
TAILS = {
    "run": r"[^.\n。！？]*?(?:`|\$\()",
    "send": r"[^\n。！？]*?(?:https?://|[\w.+-]+@[\w-]+\.\w)",
}


def alternation(concept: str, *, non_latin: bool) -> str:
    """The concept's words in the Latin-script (or the other) languages, as one group, with
    the concept's tail (:data:`TAILS`) when it has one."""
    words = [w for lang, w in WORDS[concept].items() if (lang in NON_LATIN) == non_latin]
    return "(?:" + "|".join(f"(?:{w})" for w in words) + ")" + TAILS.get(concept, "")
