/*
 * ff1.h
 *		FF1 format-preserving encryption (NIST SP 800-38G, algorithms 7 and
 *		8) over bit strings (radix 2) of 20 to 128 bits, with an empty tweak,
 *		using AES from OpenSSL's libcrypto.
 *
 * A bit string of n bits is held as an unsigned number below 2^n (its bits
 * read most significant first, which is FF1's NUM_2), split over two 64-bit
 * words.  Everything here is plain C with no PostgreSQL calls, so the unit
 * test (test/unit/) can build it without a server.
 */
#ifndef UID_FF1_H
#define UID_FF1_H

#include <openssl/evp.h>

/* radix^minlen >= 1,000,000 (the Revision 1 draft of SP 800-38G): 20 bits */
#define FF1_MIN_BITS	20
/* both halves must fit one 64-bit word */
#define FF1_MAX_BITS	128

/* an n-bit number: hi holds bits 64 and up, lo bits 0 to 63 */
typedef struct Ff1Value
{
	uint64		hi;
	uint64		lo;
} Ff1Value;

/*
 * FF1 for one key and one length n.  r0 is CIPH_K(P), the first block of
 * the CBC-MAC that every round computes: P depends only on the radix, n and
 * the tweak length, so it is encrypted once per key and length.
 */
typedef struct Ff1Domain
{
	EVP_CIPHER_CTX *aes;		/* AES-ECB encryption under K, no padding */
	int			n;				/* bits */
	int			u;				/* bits of the left half A: floor(n / 2) */
	int			v;				/* bits of the right half B: n - u */
	int			b;				/* bytes of NUM(B) in each round's block */
	int			d;				/* bytes of the round output used: 8 or 12 */
	uint64		r0_hi;			/* CIPH_K(P), big-endian, as two words */
	uint64		r0_lo;
} Ff1Domain;

/* An AES-ECB encryption context for a 16, 24 or 32 byte key; NULL on failure. */
extern EVP_CIPHER_CTX *Ff1NewAes(const unsigned char *key, int keylen);

/* Fills dom for strings of n bits under aes; false if n or AES fails. */
extern bool Ff1Prepare(EVP_CIPHER_CTX *aes, int n, Ff1Domain *dom);

/* FF1.Encrypt and FF1.Decrypt of x (below 2^n); false if AES fails. */
extern bool Ff1Encrypt(const Ff1Domain *dom, Ff1Value x, Ff1Value *out);
extern bool Ff1Decrypt(const Ff1Domain *dom, Ff1Value x, Ff1Value *out);

/* Encrypts one 16-byte block under aes (used for P and key check values). */
extern bool Ff1AesBlock(EVP_CIPHER_CTX *aes, const unsigned char *in,
						unsigned char *out);

#endif							/* UID_FF1_H */
